import "server-only";
import { requireMaintainer, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { enqueueScoring, getScoringQueue, submissionIdOfJobId } from "@/lib/submissions/scoring-queue";
import { recordAudit } from "@/lib/audit/record-audit";

type RetryResult = { submissionId: string; isQueued: boolean };

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
 * When Redis is down the submission waits QUEUED and the reconciler queues it.
 */
export async function retrySubmission(actor: Actor, submissionId: string, reason?: string): Promise<RetryResult> {
  const maintainer = requireMaintainer(actor);
  const submission = await db.submission.findUnique({ where: { id: submissionId } });
  if (!submission) throw new AppError("not_found", `No submission ${submissionId}.`);
  if (submission.status !== "FAILED") {
    throw new AppError("conflict", `Only a failed submission can be retried; ${submissionId} is ${submission.status.toLowerCase()}.`);
  }
  await db.$transaction([
    db.submission.update({
      where: { id: submissionId },
      data: { status: "QUEUED", attempts: 0, queuedAt: new Date(), startedAt: null, finishedAt: null, failureKind: null, failureReason: null },
    }),
    recordAudit(db, {
        actorId: maintainer.userId,
        action: "submission.retry",
        targetType: "Submission",
        targetId: submissionId,
        reason: reason || null,
        details: { from: { status: submission.status, attempts: submission.attempts, failureKind: submission.failureKind, failureReason: submission.failureReason } },
      }),
  ]);
  try {
    await removeFinishedJobs(submissionId);
    await enqueueScoring(submissionId, Date.now());
    return { submissionId, isQueued: true };
  } catch (error) {
    logger.warn({ err: error, submissionId }, "retry: could not queue; the reconciler will once Redis answers");
    return { submissionId, isQueued: false };
  }
}
