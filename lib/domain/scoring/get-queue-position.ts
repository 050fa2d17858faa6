import "server-only";
import { logger } from "@/lib/platform/logger";
import { getScoringQueue, submissionIdOfJobId } from "@/lib/platform/queue/scoring-queue";

/** Where a QUEUED submission stands: 1 is next. `beingScored` jobs are running now, ahead of every waiting one. */
export type QueuePosition = { position: number; waiting: number; beingScored: number };

const QUEUE_TIMEOUT_MS = 2_000;

/**
 * The submission's place among the scoring queue's waiting jobs, oldest
 * first (the order workers take them in), or null when it has no waiting job
 * (it is being scored, waits out a retry's back-off, or Redis cannot be read:
 * the page then shows its status only).
 */
export async function getQueuePosition(submissionId: string): Promise<QueuePosition | null> {
  const queue = getScoringQueue();
  let timer: NodeJS.Timeout | undefined;
  try {
    const read = Promise.all([queue.getRanges(["prioritized", "waiting"], 0, -1, true), queue.getActiveCount()]);
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${QUEUE_TIMEOUT_MS} ms`)), QUEUE_TIMEOUT_MS);
    });
    const [waitingIds, beingScored] = await Promise.race([read, timeout]);
    const index = waitingIds.findIndex((jobId) => submissionIdOfJobId(jobId) === submissionId);
    return index === -1 ? null : { position: index + 1, waiting: waitingIds.length, beingScored };
  } catch (error) {
    logger.warn({ err: error, submissionId }, "could not read the queue position");
    return null;
  } finally {
    clearTimeout(timer);
  }
}
