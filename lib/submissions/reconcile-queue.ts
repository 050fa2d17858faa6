import "server-only";
import { db } from "@/lib/db";
import { enqueueScoring, getScoringQueue } from "@/lib/submissions/scoring-queue";

const GRACE_MS = 10_000;
const LIVE_STATES = new Set(["waiting", "active", "delayed", "prioritized", "waiting-children"]);

/**
 * Finds submissions that wait for scoring without a live job (Redis was down
 * at upload time, or its data was lost) and queues them again. Running it
 * twice is harmless: a duplicate job finds the score already there.
 */
export async function reconcileScoringQueue(now: Date = new Date()): Promise<number> {
  const waiting = await db.submission.findMany({
    where: { status: { in: ["QUEUED", "SCORING"] }, queuedAt: { lt: new Date(now.getTime() - GRACE_MS) } },
    select: { id: true },
    take: 500,
  });
  const queue = getScoringQueue();
  let requeued = 0;
  for (const { id } of waiting) {
    const job = await queue.getJob(id);
    const state = job ? await job.getState() : "missing";
    if (LIVE_STATES.has(state)) continue;
    await enqueueScoring(id, job ? now.getTime() : 0);
    requeued += 1;
  }
  return requeued;
}
