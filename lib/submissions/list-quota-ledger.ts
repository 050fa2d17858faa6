import "server-only";
import { db } from "@/lib/db";
import type { QuotaEntryKind } from "@/lib/generated/prisma";

export type QuotaLedgerEntryView = {
  id: string;
  kind: QuotaEntryKind;
  amount: number;
  createdAt: Date;
  windowAt: Date;
  submissionId: string | null;
  submissionName: string | null;
  reason: string | null;
  /** Who made the row: the owner's upload (a charge), the platform (an automatic refund) or a maintainer. */
  madeBy: "upload" | "platform" | "maintainer";
};

/** How many rows one page or API answer shows; a budget is 50 by default, so this is every row of a release. */
const LEDGER_LIMIT = 500;

function madeByOf(kind: QuotaEntryKind, actorId: string | null): QuotaLedgerEntryView["madeBy"] {
  if (actorId !== null) return "maintainer";
  return kind === "CHARGE" ? "upload" : "platform";
}

/**
 * One account's quota ledger on a release, newest first: only that account's
 * own rows (an address budget is shared, but other accounts' rows stay theirs).
 * The maintainer who made a row is not named to the participant.
 */
export async function listQuotaLedger(userId: string, releaseId: string): Promise<QuotaLedgerEntryView[]> {
  const rows = await db.quotaLedgerEntry.findMany({
    where: { userId, releaseId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: LEDGER_LIMIT,
    select: {
      id: true,
      kind: true,
      amount: true,
      createdAt: true,
      windowAt: true,
      submissionId: true,
      reason: true,
      actorId: true,
      submission: { select: { originalName: true } },
    },
  });
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    amount: row.amount,
    createdAt: row.createdAt,
    windowAt: row.windowAt,
    submissionId: row.submissionId,
    submissionName: row.submission?.originalName ?? null,
    reason: row.reason,
    madeBy: madeByOf(row.kind, row.actorId),
  }));
}
