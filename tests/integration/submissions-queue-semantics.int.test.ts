import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { getEnv } from "@/lib/platform/env";
import { UnrecoverableError, Worker } from "bullmq";
import { createRedisConnection, getSharedRedis } from "@/lib/platform/redis";
import { reconcileScoringQueue } from "@/lib/domain/scoring/reconcile-queue";
import { scoringJob } from "@/lib/platform/queue/scoring-job";
import { enqueueScoring, getScoringQueue, submissionIdOfJobId } from "@/lib/platform/queue/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { importSmallRelease, predictionLines, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { killAllChildren } from "./support/processes";
import { submitLines } from "./support/uploads";
import { waitFor } from "./support/wait";
import { startWorker, type WorkerEnv } from "./support/workers";
import { createTestUser, type TestUser } from "@/testing/test-users";

/**
 * The reconciler cannot overlap itself (a Redis lock, and one loop in the
 * worker) and re-queues under a job id derived from the submission's state;
 * a submission whose scoring keeps dying is FAILED after SCORING_MAX_ATTEMPTS
 * with a message its owner can act on, instead of being re-queued forever.
 */
const LIVE = ["waiting", "active", "delayed", "prioritized", "waiting-children"] as const;

let release: TestRelease;
let owner: TestUser;

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  owner = await createTestUser({ label: "queue-semantics", withoutPassword: true });
});

afterAll(async () => {
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

async function liveJobIds(): Promise<string[]> {
  return (await getScoringQueue().getJobs([...LIVE])).flatMap((job) => (job.id === undefined ? [] : [job.id]));
}

/** As if Redis had lost the jobs of these submissions a minute after they were queued. */
async function loseJobs(ids: readonly string[]): Promise<void> {
  for (const id of await liveJobIds()) await (await getScoringQueue().getJob(id))?.remove();
  await db.submission.updateMany({ where: { id: { in: [...ids] } }, data: { queuedAt: new Date(Date.now() - 60_000) } });
}

/** Earlier tests' submissions stop waiting, so each test sees only its own. */
async function settleAllBut(id: string): Promise<void> {
  await db.submission.updateMany({ where: { id: { not: id }, status: { in: ["QUEUED", "SCORING"] } }, data: { status: "FAILED" } });
}

/** Takes the submission's first job as a worker would and fails it: Redis still knows the job, in a terminal state. */
async function failFirstJob(id: string): Promise<void> {
  await loseJobs([]);
  await enqueueScoring(id);
  const connection = createRedisConnection({ forWorker: true });
  const worker = new Worker(scoringJob.queue, null, { connection, autorun: false });
  try {
    const job = await worker.getNextJob("test-token");
    expect(job?.id).toBe(id);
    await job?.moveToFailed(new UnrecoverableError("worker gone"), "test-token", false);
  } finally {
    await worker.close();
    await connection.quit();
  }
}

describe("reconciler", () => {
  it("runs started together re-queue each lost submission once, under its own id", async () => {
    const ids: string[] = [];
    for (const seed of [501, 502, 503, 504, 505]) ids.push((await submitLines(predictionLines(release, "dev", "open", 0.5, seed), { userId: owner.id })).id);
    await loseJobs(ids);
    expect(await liveJobIds()).toEqual([]);

    const counts = await Promise.all([reconcileScoringQueue(), reconcileScoringQueue(), reconcileScoringQueue(), reconcileScoringQueue()]);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(ids.length);
    expect((await liveJobIds()).sort()).toEqual([...ids].sort());
    expect(await reconcileScoringQueue()).toBe(0);
  });

  it("a job lost after its first job ran is re-queued under <id>-a<attempts>, the same id for every run", async () => {
    const submission = await submitLines(predictionLines(release, "dev", "open", 0.5, 506), { userId: owner.id });
    await settleAllBut(submission.id);
    await failFirstJob(submission.id);
    await loseJobs([submission.id]);
    await db.submission.update({ where: { id: submission.id }, data: { attempts: 2, status: "SCORING" } });
    expect(await getScoringQueue().getJob(submission.id)).toBeDefined();

    const counts = await Promise.all([reconcileScoringQueue(), reconcileScoringQueue()]);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(1);
    const live = (await liveJobIds()).filter((id) => submissionIdOfJobId(id) === submission.id);
    expect(live).toEqual([`${submission.id}-a2`]);
    expect(await reconcileScoringQueue()).toBe(0);
  });

  it("a submission whose scoring was started SCORING_MAX_ATTEMPTS times is FAILED with a message, not re-queued", async () => {
    const maxAttempts = getEnv().SCORING_MAX_ATTEMPTS;
    const poison = await submitLines(predictionLines(release, "dev", "open", 0.5, 507), { userId: owner.id });
    await settleAllBut(poison.id);
    await loseJobs([poison.id]);
    // As if a worker had died on it every time it was started.
    await db.submission.update({ where: { id: poison.id }, data: { attempts: maxAttempts, status: "SCORING" } });

    expect(await reconcileScoringQueue()).toBe(0);
    const row = await db.submission.findUniqueOrThrow({ where: { id: poison.id } });
    expect(row.status).toBe("FAILED");
    expect(row.failureKind).toBe("INTERNAL");
    expect(row.failureReason).toContain(`started ${maxAttempts} times and never finished`);
    // A dev file was never charged: the message says so instead of claiming a refund.
    expect(row.failureReason).toMatch(/It was not charged to any test quota, so there was nothing to refund\.$/);
    expect(row.failureReason).not.toMatch(/refunded/);
    expect(row.failureReason).toMatch(/maintainers/);
    expect((await liveJobIds()).filter((id) => submissionIdOfJobId(id) === poison.id)).toEqual([]);
  });

  it("a submission whose worker is killed every time it is scored ends FAILED with that message", async () => {
    // Slow scoring (many bootstrap resamples) so each SIGKILL lands mid-job; a short lock so the job is taken over at once.
    const env: WorkerEnv = { BOOTSTRAP_RESAMPLES: "400000", WORKER_LOCK_MS: "2000", WORKER_CONCURRENCY: "1", WORKER_RECONCILE_MS: "1000", SCORING_MAX_ATTEMPTS: "2" };
    const poison = await submitLines(predictionLines(release, "dev", "open", 0.5, 508), { userId: owner.id });
    await settleAllBut(poison.id);
    // Past the reconciler's grace period, so it acts as soon as the job is gone.
    await db.submission.update({ where: { id: poison.id }, data: { queuedAt: new Date(Date.now() - 60_000) } });
    let worker = await startWorker(env);
    let kills = 0;
    for (;;) {
      const row = await waitFor(
        async () => {
          const found = await db.submission.findUniqueOrThrow({ where: { id: poison.id } });
          return found.status === "FAILED" || found.status === "SCORED" || (found.status === "SCORING" && found.attempts > kills) ? found : undefined;
        },
        () => `the poison submission was not started again after ${kills} kill(s)`,
        { timeoutMs: 60_000, workers: [worker] },
      );
      if (row.status !== "SCORING") break;
      await worker.kill();
      kills += 1;
      expect(kills).toBeLessThan(12);
      worker = await startWorker(env);
    }
    const row = await db.submission.findUniqueOrThrow({ where: { id: poison.id } });
    expect(row.status).toBe("FAILED");
    expect(row.failureKind).toBe("INTERNAL");
    expect(row.failureReason).toContain("never finished");
    expect(kills).toBeGreaterThanOrEqual(2);
    // And it stays FAILED: nothing re-queues it.
    expect((await liveJobIds()).filter((id) => submissionIdOfJobId(id) === poison.id)).toEqual([]);
    // Seen taking 10 s to 67 s on 2 shared cores (each kill waits for a stalled-job check and a worker start).
  }, 240_000);
});
