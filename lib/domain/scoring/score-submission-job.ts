import "server-only";
import { UnrecoverableError, type Job } from "bullmq";
import { logger as rootLogger, toError } from "@/lib/platform/logger";
import { InvalidSubmissionError, markSubmissionFailed, markSubmissionRetrying, processSubmission } from "@/lib/domain/scoring/process-submission";
import { scoringJob, type JobResult, type ScoringJob } from "@/lib/platform/queue/scoring-job";

const logger = rootLogger.child({ service: "worker" });

/**
 * One scoring job: the submission is scored, or marked INVALID at once (no
 * retry can fix a file), or, after an infrastructure fault, retried by BullMQ
 * until its attempts run out and then marked INTERNAL (a test charge is refunded
 * when no score of it was ever shown: markSubmissionFailed).
 */
export async function scoreSubmissionJob(job: Job<ScoringJob>): Promise<JobResult> {
  const parsed = scoringJob.schema.safeParse(job.data);
  if (!parsed.success) return { outcome: "invalid", error: new UnrecoverableError(`malformed job ${job.id}: ${parsed.error.message}`) };
  const { submissionId } = parsed.data;
  const log = logger.child({ submissionId, jobId: job.id });
  const maxAttempts = job.opts.attempts ?? 1;
  try {
    const outcome = await processSubmission(submissionId);
    log.info({ outcome }, `${submissionId}: ${outcome}`);
    return { outcome, result: outcome };
  } catch (error) {
    if (error instanceof InvalidSubmissionError) {
      await markSubmissionFailed(submissionId, "INVALID", error.message);
      log.info({ reason: error.message }, `${submissionId}: invalid`);
      return { outcome: "invalid", error: new UnrecoverableError(error.message) };
    }
    const attempt = job.attemptsMade + 1;
    log.error({ err: toError(error), attempt, maxAttempts }, `${submissionId}: attempt ${attempt}/${maxAttempts} failed`);
    if (attempt >= maxAttempts) {
      await markSubmissionFailed(
        submissionId,
        "INTERNAL",
        `An internal error stopped scoring after ${maxAttempts} attempts. This is our fault, not your file's; maintainers can see it and re-score it.`,
      ).catch(() => undefined);
      return { outcome: "failed", error };
    }
    await markSubmissionRetrying(submissionId, attempt, maxAttempts).catch(() => undefined);
    return { outcome: "retrying", error };
  }
}
