import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runBaselines } from "@/lib/domain/scoring/run-baselines";
import { db } from "@/lib/platform/db";
import type { Submission } from "@/lib/platform/generated/prisma";
import { getSharedRedis } from "@/lib/platform/redis";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { comparisonPairCounts, scoredBaselineIds } from "./support/comparisons";
import { assertTestServices } from "@/testing/local-database";
import { killAllChildren } from "./support/processes";
import { importSmallRelease, predictionLines, scoreOffline, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { waitFor, waitForAllScored, waitForAllSettled, waitForStatus } from "./support/wait";
import { startWorker, type WorkerEnv } from "./support/workers";
import { createTestUser, type TestUser } from "@/testing/test-users";

/**
 * Workers die. A job whose worker is SIGKILLed mid-scoring is taken over once
 * its lock expires, and scoring it again leaves exactly one score and one
 * comparison per baseline. SIGTERM lets the current job finish first.
 */
// Each job then takes most of a second, with the event loop blocked well
// under WORKER_LOCK_MS, so a kill lands mid-job while lock renewal still works.
const HEAVY: WorkerEnv = { BOOTSTRAP_RESAMPLES: "60000", WORKER_LOCK_MS: "2000", WORKER_CONCURRENCY: "1" };
const HEAVY_RESAMPLES = 60_000;

let release: TestRelease;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let testBaselines: string[] = [];

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  [alice, bob, carol] = [await createTestUser({ label: "faults-a", withoutPassword: true }), await createTestUser({ label: "faults-b", withoutPassword: true }), await createTestUser({ label: "faults-c", withoutPassword: true })];
  const baselineIds = (await runBaselines(release.releaseId)).map((result) => result.submissionId);
  // Same lock settings as the workers below: the stalled-job check is throttled
  // in Redis for one stalledInterval of whichever worker ran it last.
  const worker = await startWorker({ WORKER_CONCURRENCY: "2", WORKER_LOCK_MS: HEAVY.WORKER_LOCK_MS });
  await waitForAllScored(baselineIds, { timeoutMs: 90_000, workers: [worker] });
  await worker.stop();
  testBaselines = await scoredBaselineIds(release.releaseId, "test");
  expect(testBaselines).toHaveLength(4);
});

afterEach(async () => {
  await killAllChildren();
});

afterAll(async () => {
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

async function submitClosedTest(user: TestUser, seed: number): Promise<{ submission: Submission; text: string }> {
  const lines = predictionLines(release, "test", "closed", 0.3 + (seed % 5) / 20, seed);
  const submission = await submitLines(lines, { userId: user.id, declaredSplit: "test", declaredTrack: "closed" });
  expect(submission.status).toBe("QUEUED");
  return { submission, text: toJsonl(lines) };
}

describe("a worker killed mid-job", () => {
  it("SIGKILL while SCORING: a new worker takes the job over; one score and one comparison per baseline each", async () => {
    const queued = [];
    for (let index = 0; index < 4; index += 1) queued.push(await submitClosedTest(index % 2 === 0 ? alice : bob, 100 + index));
    const ids = queued.map((entry) => entry.submission.id);

    const first = await startWorker(HEAVY);
    const victim = await waitFor(
      async () => (await db.submission.findFirst({ where: { id: { in: ids }, status: "SCORING" } })) ?? undefined,
      () => "no submission was ever seen SCORING",
      { timeoutMs: 60_000, intervalMs: 10, workers: [first] },
    );
    await first.kill();
    expect(first.handle.isRunning).toBe(false);
    const afterKill = await db.submission.findUniqueOrThrow({ where: { id: victim.id } });
    // Nothing marked it failed or finished: it was killed, not stopped.
    expect(afterKill.failureKind).toBeNull();

    const second = await startWorker(HEAVY);
    await waitForAllSettled(ids, { timeoutMs: 100_000, workers: [second] });

    const rows = await db.submission.findMany({ where: { id: { in: ids } }, include: { score: true } });
    for (const row of rows) {
      expect(row.status).toBe("SCORED");
      expect(row.failureKind).toBeNull();
      expect(row.finishedAt).not.toBeNull();
    }
    expect(rows.find((row) => row.id === victim.id)?.attempts).toBeGreaterThanOrEqual(2);
    expect(await db.score.count({ where: { submissionId: { in: ids } } })).toBe(ids.length);

    // The re-scored report is complete and identical to the offline scorer's.
    for (const { submission, text } of queued) {
      const score = rows.find((row) => row.id === submission.id)?.score;
      expect(score?.report).toEqual(scoreOffline(release, "test", text, { seed: 42, resamples: HEAVY_RESAMPLES }).report);
    }

    const counts = await comparisonPairCounts(ids);
    for (const id of ids) {
      for (const baselineId of testBaselines) expect(counts.get(`${id}|${baselineId}`), `${id} vs ${baselineId}`).toBe(1);
    }
    expect([...counts.values()].reduce((sum, count) => sum + count, 0)).toBe(ids.length * testBaselines.length);
    expect(await db.comparison.count({ where: { entryId: { in: ids }, family: "unified" } })).toBe(ids.length * testBaselines.length);
  });

  it("SIGTERM while SCORING: the worker finishes the current job, then exits 0", async () => {
    const { submission } = await submitClosedTest(carol, 200);
    const worker = await startWorker(HEAVY);
    await waitForStatus(submission.id, ["SCORING", "SCORED"], { timeoutMs: 60_000, intervalMs: 10, workers: [worker] });
    await worker.stop();
    expect(worker.logs()).toMatch(/SIGTERM: finishing current jobs/);
    expect(worker.logs()).toMatch(/closed/);
    expect(worker.handle.exitStatus?.code).toBe(0);
    const row = await db.submission.findUniqueOrThrow({ where: { id: submission.id } });
    expect(row.status).toBe("SCORED");
    expect(row.attempts).toBe(1);
    expect(await db.comparison.count({ where: { entryId: submission.id, family: "unified" } })).toBe(testBaselines.length);
  });
});
