import "server-only";
import { db } from "@/lib/platform/db";
import type { Prisma } from "@/lib/platform/generated/prisma";

/**
 * The one writer of QuotaLedgerEntry rows: charges at upload, refunds (the
 * platform's, after a scoring failure that was not the file's fault, or a
 * maintainer's) and grants. Charges and refunds are keyed to their
 * submission and round (one of each per round at most: a unique index), so
 * recording a failure twice, as a worker and the reconciler may, refunds once.
 * Round 0 is the upload's charge; a maintainer's retry of a refunded
 * submission charges it again in the next round (chargeRetriedSubmission).
 */

type ChargedSubmission = { id: string; userId: string; releaseId: string; createdAt: Date; clientAddress: string | null };

/** One test submission's charge, in the transaction that creates it. */
export async function chargeTestQuota(tx: Prisma.TransactionClient, submission: ChargedSubmission): Promise<void> {
  await tx.quotaLedgerEntry.create({
    data: {
      userId: submission.userId,
      releaseId: submission.releaseId,
      kind: "CHARGE",
      amount: 1,
      windowAt: submission.createdAt,
      submissionId: submission.id,
      clientAddress: submission.clientAddress,
    },
  });
}

type RefundOptions = {
  submissionId: string;
  reason: string;
  /** The maintainer who refunds; omitted: the platform refunds on its own. */
  actorId?: string;
};

type RefundOutcome = "refunded" | "not_charged" | "already_refunded";

type LatestCharge = { charge: { userId: string; releaseId: string; windowAt: Date; clientAddress: string | null; round: number } | null; isRefunded: boolean };

/** A submission's charge of its latest round, and whether that round is refunded. */
async function latestCharge(client: Prisma.TransactionClient, submissionId: string): Promise<LatestCharge> {
  const charge = await client.quotaLedgerEntry.findFirst({
    where: { submissionId, kind: "CHARGE" },
    orderBy: { round: "desc" },
    select: { userId: true, releaseId: true, windowAt: true, clientAddress: true, round: true },
  });
  if (!charge) return { charge: null, isRefunded: false };
  const refund = await client.quotaLedgerEntry.findUnique({
    where: { submissionId_kind_round: { submissionId, kind: "REFUND", round: charge.round } },
    select: { id: true },
  });
  return { charge, isRefunded: refund !== null };
}

/**
 * Gives back a submission's latest charge: the refund counts where the charge
 * did (the charge's window time and address), so the budget is as if the file
 * had never been sent. Nothing happens for a submission that was never
 * charged or whose latest charge is refunded already.
 */
export async function refundTestQuota(options: RefundOptions, client: Prisma.TransactionClient = db): Promise<RefundOutcome> {
  const { charge } = await latestCharge(client, options.submissionId);
  if (!charge) return "not_charged";
  const created = await client.quotaLedgerEntry.createMany({
    data: [
      {
        userId: charge.userId,
        releaseId: charge.releaseId,
        kind: "REFUND",
        amount: -1,
        windowAt: charge.windowAt,
        submissionId: options.submissionId,
        clientAddress: charge.clientAddress,
        round: charge.round,
        reason: options.reason,
        actorId: options.actorId ?? null,
      },
    ],
    skipDuplicates: true,
  });
  return created.count === 1 ? "refunded" : "already_refunded";
}

/** What the platform did with a test charge after an internal scoring failure (lib/domain/scoring/process-submission.ts). */
export type PlatformRefundOutcome = RefundOutcome | "feedback_shown";

/**
 * The platform's own refund after it failed to score a file: only for a
 * submission that never reached SCORED. One whose scores its owner has seen
 * (a re-score that then failed) keeps its charge: the feedback was given.
 */
export async function refundPlatformFault(client: Prisma.TransactionClient, submissionId: string, reason: string): Promise<PlatformRefundOutcome> {
  const everScored = await client.score.findUnique({ where: { submissionId }, select: { submissionId: true } });
  if (everScored !== null) {
    return (await latestCharge(client, submissionId)).charge === null ? "not_charged" : "feedback_shown";
  }
  return refundTestQuota({ submissionId, reason }, client);
}

/**
 * A maintainer sends a FAILED submission back to scoring (retry-submission.ts):
 * if its latest charge was refunded, scoring it now would give its feedback
 * free, so it is charged again in the next round, now, from the address of
 * its upload, with a ledger line saying why. Returns whether it was charged.
 */
export async function chargeRetriedSubmission(client: Prisma.TransactionClient, submissionId: string, actorId: string, now: Date = new Date()): Promise<boolean> {
  const { charge, isRefunded } = await latestCharge(client, submissionId);
  if (!charge || !isRefunded) return false;
  await client.quotaLedgerEntry.create({
    data: {
      userId: charge.userId,
      releaseId: charge.releaseId,
      kind: "CHARGE",
      amount: 1,
      windowAt: now,
      submissionId,
      clientAddress: charge.clientAddress,
      round: charge.round + 1,
      reason: "Charged again: a maintainer sent this refunded submission back to scoring, and its scores will be shown to you.",
      actorId,
    },
  });
  return true;
}

type GrantOptions = { userId: string; releaseId: string; amount: number; reason: string; actorId: string; now?: Date };

/** Extra test submissions for one account on one release, usable at once (they count in the 24-hour window too). */
export async function grantTestQuota(options: GrantOptions, client: Prisma.TransactionClient): Promise<{ id: string }> {
  return client.quotaLedgerEntry.create({
    data: {
      userId: options.userId,
      releaseId: options.releaseId,
      kind: "GRANT",
      amount: -options.amount,
      windowAt: options.now ?? new Date(),
      reason: options.reason,
      actorId: options.actorId,
    },
    select: { id: true },
  });
}
