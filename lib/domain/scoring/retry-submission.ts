import "server-only";
import { requireMaintainer, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import { logger } from "@/lib/platform/logger";
import { enqueueScoring, getScoringQueue, submissionIdOfJobId } from "@/lib/platform/queue/scoring-queue";
import { recordAudit } from "@/lib/platform/audit/record-audit";
import { chargeRetriedSubmission } from "@/lib/domain/quotas/quota-ledger";

type RetryResult = {
  submissionId: string;
  isQueued: boolean;
  /** Its test charge had been refunded, so it was charged again (the owner's ledger says why). */
  isChargedAgain: boolean;
};

/**
 * Removes the submission's finished jobs (failed or completed) from Redis, so
 * the reconciler's job ids (<id>-a<attempts>, counted again from 0) are free
 * and the failed list shows what is failed now.
 */
async function removeFinishedJobs(submissionId: string): Promise<void> {
  const queue = getScoringQueue();
  const ids = await queue.getRanges(["failed", "completed"], 0, -1);
  for (const jobId of ids.filter((id) => submissionIdOfJobId(id) === submissionId)) {
    await (await queue.getJob(jobId))?.remove();
  }
}

/**
 * A maintainer sends a FAILED submission back to scoring: its attempts start
 * again from 0 (SCORING_MAX_ATTEMPTS applies anew), its failure message goes,
 * and the audit log keeps who did it, when, why and what the failure was.
 * A test submission whose charge was refunded is charged again (it will show
 * its scores), now, even beyond the owner's budget: the maintainer decided.
 * When Redis is down the submission waits QUEUED and the reconciler queues it.
 */
export async function retrySubmission(actor: Actor, submissionId: string, reason?: string): Promise<RetryResult> {
  const maintainer = requireMaintainer(actor);
  const submission = await db.submission.findUnique({ where: { id: submissionId } });
  if (!submission) throw new AppError("not_found", `No submission ${submissionId}.`);
  if (submission.status !== "FAILED") {
    throw new AppError("conflict", `Only a failed submission can be retried; ${submissionId} is ${submission.status.toLowerCase()}.`);
  }
  const isChargedAgain = await db.$transaction(async (tx) => {
    await tx.submission.update({
      where: { id: submissionId },
      data: { status: "QUEUED", attempts: 0, queuedAt: new Date(), startedAt: null, finishedAt: null, failureKind: null, failureReason: null },
    });
    // A refunded test file that scores now would give its feedback free: it is charged again (quota-ledger.ts).
    const charged = await chargeRetriedSubmission(tx, submissionId, maintainer.userId);
    await recordAudit(tx, {
      actorId: maintainer.userId,
      action: "submission.retry",
      targetType: "Submission",
      targetId: submissionId,
      reason: reason || null,
      details: { from: { status: submission.status, attempts: submission.attempts, failureKind: submission.failureKind, failureReason: submission.failureReason }, isChargedAgain: charged },
    });
    return charged;
  });
  try {
    await removeFinishedJobs(submissionId);
    await enqueueScoring(submissionId, Date.now());
    return { submissionId, isQueued: true, isChargedAgain };
  } catch (error) {
    logger.warn({ err: error, submissionId }, "retry: could not queue; the reconciler will once Redis answers");
    return { submissionId, isQueued: false, isChargedAgain };
  }
}
