import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBaselines } from "@/lib/domain/scoring/run-baselines";
import { db } from "@/lib/platform/db";
import type { Submission } from "@/lib/platform/generated/prisma";
import { getSharedRedis } from "@/lib/platform/redis";
import { processSubmission } from "@/lib/domain/scoring/process-submission";
import { enqueueScoring, getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { comparisonPairCounts, comparisonRowsOf, scoredBaselineIds } from "./support/comparisons";
import { assertTestServices } from "@/testing/local-database";
import { killAllChildren } from "./support/processes";
import { importSmallRelease, predictionLines, scoreOffline, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { waitFor, waitForAllSettled } from "./support/wait";
import { startWorker, type WorkerProcess } from "./support/workers";
import { createTestUser, type TestUser } from "@/testing/test-users";

/**
 * "Assume every job runs twice" (conventions): the same submission processed
 * twice, one after the other or at the same time, or queued twice, ends with
 * one score, the same report and one comparison per baseline.
 */
let release: TestRelease;
let participant: TestUser;
let devBaselines: string[] = [];
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  participant = await createTestUser({ label: "idempotency", withoutPassword: true });
  // Baselines are scored in this process, so no worker competes with the calls below.
  for (const { submissionId } of await runBaselines(release.releaseId)) await processSubmission(submissionId);
  devBaselines = await scoredBaselineIds(release.releaseId, "dev");
  expect(devBaselines).toHaveLength(4);
});

afterAll(async () => {
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

async function submitDev(seed: number): Promise<{ submission: Submission; text: string }> {
  const lines = predictionLines(release, "dev", seed % 2 === 0 ? "open" : "closed", 0.4, seed);
  return { submission: await submitLines(lines, { userId: participant.id }), text: toJsonl(lines) };
}

async function snapshot(submissionId: string) {
  const row = await db.submission.findUniqueOrThrow({ where: { id: submissionId }, include: { score: true } });
  const comparisons = (await comparisonRowsOf(release.releaseId, "dev")).filter((comparison) => comparison.entryId === submissionId);
  return { row, comparisons };
}

async function expectOneScoreAndComparisonPerBaseline(submissionId: string): Promise<void> {
  expect(await db.score.count({ where: { submissionId } })).toBe(1);
  const counts = await comparisonPairCounts([submissionId]);
  expect([...counts.keys()].sort()).toEqual(devBaselines.map((baselineId) => `${submissionId}|${baselineId}`).sort());
  expect([...counts.values()].every((count) => count === 1)).toBe(true);
}

describe("the same job delivered twice", () => {
  it("processSubmission twice in a row: the second finds the score current and changes nothing", async () => {
    const { submission, text } = await submitDev(31);
    expect(await processSubmission(submission.id)).toBe("scored");
    const first = await snapshot(submission.id);
    expect(first.row.score?.report).toEqual(scoreOffline(release, "dev", text, { seed: 42, resamples: 1000 }).report);

    expect(await processSubmission(submission.id)).toBe("already-scored");
    const second = await snapshot(submission.id);
    expect(second.row.status).toBe("SCORED");
    expect(second.row.attempts).toBe(1);
    expect(second.row.score?.report).toEqual(first.row.score?.report);
    expect(second.row.score?.computedAt).toEqual(first.row.score?.computedAt);
    expect(second.comparisons).toEqual(first.comparisons);
    await expectOneScoreAndComparisonPerBaseline(submission.id);
  });

  it("processSubmission three times at once: one score, the offline report, no duplicate comparisons", async () => {
    const { submission, text } = await submitDev(32);
    const outcomes = await Promise.all([processSubmission(submission.id), processSubmission(submission.id), processSubmission(submission.id)]);
    for (const outcome of outcomes) expect(["scored", "already-scored"]).toContain(outcome);
    expect(outcomes).toContain("scored");

    const { row, comparisons } = await snapshot(submission.id);
    expect(row.status).toBe("SCORED");
    expect(row.failureKind).toBeNull();
    expect(row.score?.report).toEqual(scoreOffline(release, "dev", text, { seed: 42, resamples: 1000 }).report);
    expect(comparisons).toHaveLength(devBaselines.length);
    await expectOneScoreAndComparisonPerBaseline(submission.id);

    // A later delivery of the same job sees the same state.
    expect(await processSubmission(submission.id)).toBe("already-scored");
    expect((await snapshot(submission.id)).comparisons).toEqual(comparisons);
  });

  it("enqueueScoring with the same id while the job waits adds nothing; the worker scores it once", async () => {
    const { submission, text } = await submitDev(33);
    await enqueueScoring(submission.id);
    await enqueueScoring(submission.id);
    const waiting = await getScoringQueue().getJobs(["waiting", "prioritized", "delayed"]);
    expect(waiting.filter((job) => job.data.submissionId === submission.id).map((job) => job.id)).toEqual([submission.id]);

    const earlier = await db.score.findMany({ where: { submission: { userId: participant.id } }, select: { submissionId: true, computedAt: true } });
    worker = await startWorker({ WORKER_CONCURRENCY: "2" });
    // Until the worker is idle: the jobs of the earlier, already scored submissions are redelivered to it too.
    await waitForAllSettled([submission.id], { timeoutMs: 60_000, workers: [worker] });

    const { row } = await snapshot(submission.id);
    expect(row.attempts).toBe(1);
    expect(row.score?.report).toEqual(scoreOffline(release, "dev", text, { seed: 42, resamples: 1000 }).report);
    await expectOneScoreAndComparisonPerBaseline(submission.id);
    // Redelivered jobs of already scored submissions did not score them again.
    for (const { submissionId, computedAt } of earlier) {
      const score = await db.score.findUniqueOrThrow({ where: { submissionId } });
      expect(score.computedAt).toEqual(computedAt);
      await expectOneScoreAndComparisonPerBaseline(submissionId);
    }
  });

  it("queuing a scored submission again (same id, or a new generation) does not score it again", async () => {
    const submission = await db.submission.findFirstOrThrow({ where: { userId: participant.id }, orderBy: { createdAt: "desc" }, include: { score: true } });
    const before = await snapshot(submission.id);

    await enqueueScoring(submission.id);
    expect(await (await getScoringQueue().getJob(submission.id))?.getState()).toBe("completed");

    await enqueueScoring(submission.id, 1);
    const redelivered = await waitFor(
      async () => {
        const job = await getScoringQueue().getJob(`${submission.id}-r1`);
        return job && (await job.getState()) === "completed" ? job : undefined;
      },
      () => "the generation-1 job was not completed",
      { timeoutMs: 60_000, workers: worker ? [worker] : [] },
    );
    expect(redelivered.returnvalue).toBe("already-scored");

    const after = await snapshot(submission.id);
    expect(after.row.attempts).toBe(before.row.attempts);
    expect(after.row.score?.computedAt).toEqual(before.row.score?.computedAt);
    expect(after.row.score?.report).toEqual(before.row.score?.report);
    expect(after.comparisons).toEqual(before.comparisons);
    await expectOneScoreAndComparisonPerBaseline(submission.id);
  });
});
