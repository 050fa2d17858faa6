import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBaselines } from "@/lib/domain/scoring/run-baselines";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import { planComparisonRows } from "@/lib/core/scoring/comparison-families";
import { outcomesFromBytes } from "@/lib/domain/scoring/refresh-comparisons";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { comparisonPairCounts, scoredBaselineIds } from "./support/comparisons";
import { assertTestServices } from "@/testing/local-database";
import { expectNearlyEqualRecords } from "./support/numbers";
import { killAllChildren } from "./support/processes";
import { importSmallRelease, predictionLines, scoreOffline, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { readStoredText } from "./support/stored-files";
import { chargesOf, submitLines } from "./support/uploads";
import { waitFor, waitForAllSettled } from "./support/wait";
import { startWorker, type WorkerProcess } from "./support/workers";
import { createTestUser, type TestUser } from "@/testing/test-users";

/**
 * The happy path end to end: upload -> pre-flight -> stored file -> queued job
 * -> a real worker process scores it -> the stored report is the offline
 * scorer's report, with comparisons against every baseline of the split.
 */
// Heavy enough that SCORING lasts long enough to be seen by polling.
const RESAMPLES = 60_000;
const SEED = 42;

let release: TestRelease;
let participant: TestUser;
let baselineIds: string[] = [];
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  participant = await createTestUser({ label: "lifecycle", withoutPassword: true });
  const baselines = await runBaselines(release.releaseId);
  baselineIds = baselines.map((result) => result.submissionId);
});

afterAll(async () => {
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

describe("submission lifecycle", () => {
  it("a dev submission goes QUEUED -> SCORING -> SCORED and stores exactly the offline scorer's report", async () => {
    const lines = predictionLines(release, "dev", "closed", 0.45, 11);
    const submission = await submitLines(lines, { userId: participant.id, originalName: "dev-closed.jsonl" });
    expect(submission).toMatchObject({ status: "QUEUED", split: "dev", track: "closed", sampleCount: release.content.samples.dev.length, attempts: 0 });
    expect(submission.startedAt).toBeNull();
    expect(submission.finishedAt).toBeNull();
    expect(await chargesOf(submission.id)).toBe(0);
    // The exact bytes are kept, content-addressed.
    expect(await readStoredText(submission.fileSha256)).toBe(toJsonl(lines));
    const job = await getScoringQueue().getJob(submission.id);
    expect(job?.data).toEqual({ submissionId: submission.id, version: 1 });

    worker = await startWorker({ BOOTSTRAP_RESAMPLES: String(RESAMPLES), BOOTSTRAP_SEED: String(SEED), WORKER_CONCURRENCY: "1" });
    const seen: string[] = [];
    await waitFor(
      async () => {
        const row = await db.submission.findUniqueOrThrow({ where: { id: submission.id }, select: { status: true } });
        if (seen[seen.length - 1] !== row.status) seen.push(row.status);
        return row.status === "SCORED" || row.status === "FAILED" ? row.status : undefined;
      },
      () => `statuses seen so far: ${seen.join(" -> ")}`,
      { timeoutMs: 90_000, intervalMs: 15, workers: [worker] },
    );
    expect(seen).toEqual(["QUEUED", "SCORING", "SCORED"]);

    const stored = await db.submission.findUniqueOrThrow({ where: { id: submission.id }, include: { score: true } });
    expect(stored.attempts).toBe(1);
    expect(stored.failureKind).toBeNull();
    expect(stored.startedAt).not.toBeNull();
    expect(stored.finishedAt).not.toBeNull();
    expect(stored.startedAt!.getTime()).toBeGreaterThanOrEqual(stored.createdAt.getTime());
    expect(stored.finishedAt!.getTime()).toBeGreaterThanOrEqual(stored.startedAt!.getTime());

    const expected = scoreOffline(release, "dev", toJsonl(lines), { seed: SEED, resamples: RESAMPLES });
    const score = stored.score;
    expect(score).not.toBeNull();
    if (!score) return;
    expect(score.report).toEqual(expected.report);
    expect(expected.report.track).toBe("closed");
    if (expected.report.track !== "closed") return;
    expect(score.primary).toBe(expected.report.metrics["hit@1"]);
    expect(score.unified).toBe(expected.report.metrics["alias_hit@1"]);
    expect(score.n).toBe(release.content.samples.dev.length);
    expect([...score.outcomes]).toEqual([...expected.outcomes.codes]);
  });

  it("compares the entry with every scored baseline of its split, with Holm p >= raw p", async () => {
    await waitForAllSettled(baselineIds, { timeoutMs: 90_000, workers: worker ? [worker] : [] });
    const devBaselines = await scoredBaselineIds(release.releaseId, "dev");
    expect(devBaselines).toHaveLength(4);

    const entry = await db.submission.findFirstOrThrow({ where: { userId: participant.id, split: "dev" }, include: { score: true } });
    // The unified family holds every baseline of the split (section 9).
    const rows = await db.comparison.findMany({ where: { entryId: entry.id, family: "unified" }, orderBy: { baselineId: "asc" } });
    expect(rows.map((row) => row.baselineId)).toEqual(devBaselines);
    for (const row of rows) {
      expect(row.pHolm).toBeGreaterThanOrEqual(row.p);
      expect(row.pHolm).toBeLessThanOrEqual(1);
      expect(row.p).toBeGreaterThanOrEqual(0);
    }
    const counts = await comparisonPairCounts([entry.id]);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);

    // The stored rows are what lib/core/scoring computes from the stored outcomes.
    const baselines = await db.submission.findMany({ where: { id: { in: devBaselines } }, include: { score: true }, orderBy: { id: "asc" } });
    const family = baselines.map((baseline) => ({ id: baseline.id, outcomes: outcomesFromBytes(baseline.track, baseline.score!.outcomes) }));
    const expected = planComparisonRows({ id: entry.id, outcomes: outcomesFromBytes(entry.track, entry.score!.outcomes) }, family);
    const allRows = await db.comparison.findMany({ where: { entryId: entry.id }, orderBy: [{ family: "asc" }, { baselineId: "asc" }] });
    expectNearlyEqualRecords(
      allRows.map((row) => ({ family: row.family, baseline: row.baselineId, metric: row.metric, b: row.b, c: row.c, p: row.p, p_exact: row.pExact, p_holm: row.pHolm })),
      expected
        .map((row) => ({ family: row.family, baseline: row.baseline, metric: row.metric, b: row.b, c: row.c, p: row.p, p_exact: row.p_exact, p_holm: row.p_holm }))
        .sort((a, b) => a.family.localeCompare(b.family) || a.baseline.localeCompare(b.baseline)),
    );
    // The unified family compares on the unified metric; the track family holds the entry's track's baselines on its primary metric.
    for (const row of rows) expect(row.metric).toBe("unified");
    const sameTrack = baselines.filter((baseline) => baseline.track === entry.track).map((baseline) => baseline.id);
    expect(allRows.filter((row) => row.family === "track").map((row) => row.baselineId)).toEqual(sameTrack);
  });

  it("a test-split open-track submission is scored the same way and compared with the test baselines only", async () => {
    const lines = predictionLines(release, "test", "open", 0.35, 12);
    const submission = await submitLines(lines, { userId: participant.id, declaredSplit: "test", declaredTrack: "open" });
    expect(submission).toMatchObject({ status: "QUEUED", split: "test", track: "open" });
    expect(await chargesOf(submission.id)).toBe(1);
    await waitForAllSettled([submission.id], { timeoutMs: 90_000, workers: worker ? [worker] : [] });

    const score = await db.score.findUniqueOrThrow({ where: { submissionId: submission.id } });
    const expected = scoreOffline(release, "test", toJsonl(lines), { seed: SEED, resamples: RESAMPLES });
    expect(score.report).toEqual(expected.report);
    if (expected.report.track !== "open") throw new Error("expected an open-track report");
    expect(score.primary).toBe(expected.report.metrics.alias);

    const testBaselines = await scoredBaselineIds(release.releaseId, "test");
    expect(testBaselines).toHaveLength(4);
    const rows = await db.comparison.findMany({ where: { entryId: submission.id, family: "unified" }, orderBy: { baselineId: "asc" } });
    expect(rows.map((row) => row.baselineId)).toEqual(testBaselines);
    for (const row of rows) expect(row.pHolm).toBeGreaterThanOrEqual(row.p);
  });
});
