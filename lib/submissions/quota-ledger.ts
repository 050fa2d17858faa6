import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma";

/**
 * The one writer of QuotaLedgerEntry rows: charges at upload, refunds (the
 * platform's, after a scoring failure that was not the file's fault, or a
 * maintainer's) and grants. Charges and refunds are keyed to their
 * submission (one of each at most: a unique index), so recording a failure
 * twice, as a worker and the reconciler may, refunds once.
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

/**
 * Gives back a submission's charge: the refund counts where the charge did
 * (the charge's window time and address), so the budget is as if the file
 * had never been sent. Nothing happens for a submission that was never
 * charged or is refunded already.
 */
export async function refundTestQuota(options: RefundOptions, client: Prisma.TransactionClient = db): Promise<RefundOutcome> {
  const charge = await client.quotaLedgerEntry.findUnique({
    where: { submissionId_kind: { submissionId: options.submissionId, kind: "CHARGE" } },
  });
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
        reason: options.reason,
        actorId: options.actorId ?? null,
      },
    ],
    skipDuplicates: true,
  });
  return created.count === 1 ? "refunded" : "already_refunded";
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
