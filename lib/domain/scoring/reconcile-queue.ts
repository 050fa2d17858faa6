import "server-only";
import { randomUUID } from "node:crypto";
import type { JobState } from "bullmq";
import { db } from "@/lib/platform/db";
import { getEnv } from "@/lib/platform/env";
import { getSharedRedis } from "@/lib/platform/redis";
import { markSubmissionFailed } from "@/lib/domain/scoring/process-submission";
import { enqueueScoring, getScoringQueue, reconcileJobId, submissionIdOfJobId } from "@/lib/platform/queue/scoring-queue";

const GRACE_MS = 10_000;
const LIVE_STATES: JobState[] = ["waiting", "active", "delayed", "prioritized", "waiting-children"];
/** One reconcile at a time across every worker; the lock expires on its own if its holder dies. */
const LOCK_KEY = "irc:reconcile-lock";
const LOCK_TTL_MS = 60_000;
const RELEASE_LOCK = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

function gaveUpMessage(attempts: number): string {
  return (
    `Scoring was started ${attempts} times and never finished: the scoring worker stopped each time, so it was stopped for good to keep the queue moving. ` +
    "This is usually our fault, not your file's. Check that the file scores offline (npm run score) and " +
    "tell the maintainers this submission's id; they can re-score it once the cause is fixed."
  );
}

/**
 * Finds submissions that wait for scoring without a live job (Redis was down
 * at upload time, or its data was lost, or the job died with its worker) and
 * queues them again under a job id derived from their state, so a second run
 * that sees the same state adds nothing. One that was started
 * SCORING_MAX_ATTEMPTS times is marked FAILED instead. Returns how many were
 * re-queued; 0 when another reconcile holds the lock.
 */
export async function reconcileScoringQueue(now: Date = new Date()): Promise<number> {
  const waiting = await db.submission.findMany({
    where: { status: { in: ["QUEUED", "SCORING"] }, queuedAt: { lt: new Date(now.getTime() - GRACE_MS) } },
    select: { id: true, attempts: true },
    take: 500,
  });
  if (waiting.length === 0) return 0;
  const queue = getScoringQueue();
  const client = getSharedRedis();
  const token = randomUUID();
  if ((await client.set(LOCK_KEY, token, "PX", LOCK_TTL_MS, "NX")) !== "OK") return 0;
  try {
    // A live job may be a re-score ("<id>-r<generation>") or an earlier reconcile ("<id>-a<attempts>"): look at every live job.
    const withLiveJob = new Set((await queue.getRanges(LIVE_STATES, 0, -1)).map(submissionIdOfJobId));
    const maxAttempts = getEnv().SCORING_MAX_ATTEMPTS;
    let requeued = 0;
    for (const { id, attempts } of waiting) {
      if (withLiveJob.has(id)) continue;
      if (attempts >= maxAttempts) {
        await markSubmissionFailed(id, "INTERNAL", gaveUpMessage(attempts));
        continue;
      }
      const hasFirstJob = (await queue.getJob(id)) !== undefined;
      await enqueueScoring(id, 0, { jobId: hasFirstJob ? reconcileJobId(id, attempts) : id });
      requeued += 1;
    }
    return requeued;
  } finally {
    await client.eval(RELEASE_LOCK, 1, LOCK_KEY, token).catch(() => undefined);
  }
}
