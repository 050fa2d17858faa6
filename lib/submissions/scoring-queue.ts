import "server-only";
import { Queue, type JobsOptions } from "bullmq";
import { z } from "zod";
import type { Redis } from "ioredis";
import { getEnv } from "@/lib/env";
import { logConnectionErrors } from "@/lib/redis";

/** Jobs carry the submission id only: never file contents or gold. */
export const SCORING_QUEUE = "scoring";
export const scoringJobSchema = z.object({ submissionId: z.string().min(1).max(64) });
export type ScoringJob = z.infer<typeof scoringJobSchema>;

/** Infrastructure faults retry with exponential backoff; invalid files fail at once (UnrecoverableError). */
const SCORING_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: "exponential", delay: 2000 },
  removeOnComplete: { count: 1000 },
  removeOnFail: { count: 5000 },
};

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
      ? new Queue<ScoringJob>(SCORING_QUEUE, { connection })
      : new Queue<ScoringJob>(SCORING_QUEUE, { connection: { url: getEnv().REDIS_URL, enableOfflineQueue: false, maxRetriesPerRequest: 3 } });
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

/**
 * Queues a submission for scoring. The job id is the submission id plus an
 * attempt generation, so queuing the same submission twice while a job is
 * pending adds nothing. Rejects after ENQUEUE_TIMEOUT_MS when Redis is down;
 * the submission then stays QUEUED and the worker's reconciler queues it later.
 */
export async function enqueueScoring(submissionId: string, generation = 0, options: { jobId?: string } = {}): Promise<void> {
  const jobId = options.jobId ?? (generation === 0 ? submissionId : `${submissionId}-r${generation}`);
  await withTimeout(
    getScoringQueue().add("score", { submissionId }, { ...SCORING_JOB_OPTIONS, jobId }),
    ENQUEUE_TIMEOUT_MS,
    `Redis did not answer within ${ENQUEUE_TIMEOUT_MS} ms`,
  );
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
