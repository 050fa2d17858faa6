import "server-only";
import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { getEnv } from "@/lib/platform/env";
import { logConnectionErrors } from "@/lib/platform/redis";
import { scoringJob, type ScoringJob } from "@/lib/platform/queue/scoring-job";

const globalForQueue = globalThis as unknown as { scoringQueue?: Queue<ScoringJob> };

/**
 * The producer side. By default the queue owns its connection (closed by
 * queue.close()), with BullMQ's production settings for producers: no offline
 * queue, so an add while Redis is unreachable fails at once instead of
 * waiting in memory, and an "error" listener, so an outage logs one line per
 * 30 s rather than a stack trace per reconnect.
 */
export function getScoringQueue(connection?: Redis): Queue<ScoringJob> {
  if (!globalForQueue.scoringQueue) {
    const queue = connection
      ? new Queue<ScoringJob>(scoringJob.queue, { connection })
      : new Queue<ScoringJob>(scoringJob.queue, { connection: { url: getEnv().REDIS_URL, enableOfflineQueue: false, maxRetriesPerRequest: 3 } });
    queue.on("error", logConnectionErrors("scoring queue"));
    globalForQueue.scoringQueue = queue;
  }
  return globalForQueue.scoringQueue;
}

export async function closeScoringQueue(): Promise<void> {
  const queue = globalForQueue.scoringQueue;
  globalForQueue.scoringQueue = undefined;
  await queue?.close();
}

/**
 * A healthy Redis answers in milliseconds. A process whose first enqueue
 * happens while Redis is down would otherwise wait for it indefinitely
 * (BullMQ waits for the connection to become ready), hanging the request.
 */
const ENQUEUE_TIMEOUT_MS = 5_000;

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The job id of a submission's scoring in one attempt generation (a re-score is a new generation). */
function scoringJobId(submissionId: string, generation: number): string {
  return generation === 0 ? submissionId : `${submissionId}-r${generation}`;
}

/**
 * Queues a submission for scoring. The job id is the submission id plus an
 * attempt generation, so queuing the same submission twice while a job is
 * pending adds nothing. Rejects after ENQUEUE_TIMEOUT_MS when Redis is down;
 * the submission then stays QUEUED and the worker's reconciler queues it later.
 */
export async function enqueueScoring(submissionId: string, generation = 0, options: { jobId?: string } = {}): Promise<void> {
  const jobId = options.jobId ?? scoringJobId(submissionId, generation);
  await withTimeout(
    getScoringQueue().add(scoringJob.name, scoringJob.payload(submissionId), { ...scoringJob.options, jobId }),
    ENQUEUE_TIMEOUT_MS,
    `Redis did not answer within ${ENQUEUE_TIMEOUT_MS} ms`,
  );
}

/** Jobs per addBulk call: one round trip for each, small enough to stay well inside ENQUEUE_TIMEOUT_MS. */
const JOBS_PER_BULK = 500;

/**
 * `enqueueScoring` for many submissions at once (a re-score of a release): the
 * same job ids and options, in a few round trips to Redis instead of one per
 * submission.
 */
export async function enqueueScoringMany(submissionIds: readonly string[], generation: number): Promise<void> {
  for (let start = 0; start < submissionIds.length; start += JOBS_PER_BULK) {
    const jobs = submissionIds.slice(start, start + JOBS_PER_BULK).map((submissionId) => ({
      name: scoringJob.name,
      data: scoringJob.payload(submissionId),
      opts: { ...scoringJob.options, jobId: scoringJobId(submissionId, generation) },
    }));
    await withTimeout(getScoringQueue().addBulk(jobs), ENQUEUE_TIMEOUT_MS, `Redis did not answer within ${ENQUEUE_TIMEOUT_MS} ms`);
  }
}

/**
 * The job id the reconciler gives a submission whose job was lost after
 * `attempts` started attempts: the same for every reconciler that sees the
 * same state, so two of them (or one run twice) add one job, not two.
 */
export function reconcileJobId(submissionId: string, attempts: number): string {
  return `${submissionId}-a${attempts}`;
}

/** The submission a scoring job is for, from the job id enqueueScoring or the reconciler gave it. */
export function submissionIdOfJobId(jobId: string): string {
  return jobId.replace(/-[ar]\d+$/, "");
}
