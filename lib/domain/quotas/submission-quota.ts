import "server-only";
import { db } from "@/lib/platform/db";

/** What one submission cost its owner's test quota, read from the quota ledger (its one source). */
export type SubmissionQuota = {
  /** free: never charged (a dev file, a baseline, an operator's exempt upload); charged: its latest charge stands; refunded: given back. */
  state: "free" | "charged" | "refunded";
  /** The latest round's refund reason, or a re-charge's; null for a plain charge or when the viewer may not read it. */
  reason: string | null;
};

/**
 * The submission's latest charge round (quota-ledger.ts) and whether it was
 * refunded. `withReason`: the owner and maintainers read why (a refund's
 * reason may name an internal failure); anyone else sees the state only.
 */
export async function getSubmissionQuota(submissionId: string, options: { withReason: boolean }): Promise<SubmissionQuota> {
  const rows = await db.quotaLedgerEntry.findMany({
    where: { submissionId, kind: { in: ["CHARGE", "REFUND"] } },
    orderBy: [{ round: "desc" }, { kind: "asc" }],
    select: { kind: true, round: true, reason: true },
  });
  const latestRound = rows[0]?.round;
  if (latestRound === undefined) return { state: "free", reason: null };
  const ofRound = rows.filter((row) => row.round === latestRound);
  const refund = ofRound.find((row) => row.kind === "REFUND");
  const charge = ofRound.find((row) => row.kind === "CHARGE");
  const reason = (refund ?? charge)?.reason ?? null;
  return { state: refund ? "refunded" : "charged", reason: options.withReason ? reason : null };
}
