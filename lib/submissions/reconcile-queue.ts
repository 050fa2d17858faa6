import "server-only";
import type { JobState } from "bullmq";
import { db } from "@/lib/db";
import { enqueueScoring, getScoringQueue, submissionIdOfJobId } from "@/lib/submissions/scoring-queue";

const GRACE_MS = 10_000;
const LIVE_STATES: JobState[] = ["waiting", "active", "delayed", "prioritized", "waiting-children"];

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
  if (waiting.length === 0) return 0;
  const queue = getScoringQueue();
  // A live job may be a re-score ("<id>-r<generation>", from a maintainer, npm run
  // rescore or an earlier reconcile), not only "<id>": look at every live job.
  const withLiveJob = new Set((await queue.getRanges(LIVE_STATES, 0, -1)).map(submissionIdOfJobId));
  let requeued = 0;
  for (const { id } of waiting) {
    if (withLiveJob.has(id)) continue;
    const job = await queue.getJob(id);
    await enqueueScoring(id, job ? now.getTime() : 0);
    requeued += 1;
  }
  return requeued;
}
