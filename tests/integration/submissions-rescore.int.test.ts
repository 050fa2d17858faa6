import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import { Prisma } from "@/lib/platform/generated/prisma";
import { PLATFORM_SCORING_VERSION, SCORER_VERSION } from "@/lib/core/scoring/score-report";
import { runBaselines } from "@/lib/domain/scoring/run-baselines";
import { markSubmissionFailed, processSubmission } from "@/lib/domain/scoring/process-submission";
import { queueStaleScores } from "@/lib/domain/scoring/queue-stale-scores";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { comparisonPairCounts } from "./support/comparisons";
import { importSmallRelease, predictionLines, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { runRepoScript } from "./support/run-script";
import { submitLines } from "./support/uploads";
import { createTestUser, type TestUser } from "@/testing/test-users";

/**
 * npm run rescore (queueStaleScores): a score made under another scorer
 * version or gold checksum is queued once, however often it runs, and is
 * current again after the worker's operation re-scored it (protocol section 10).
 */
let release: TestRelease;
let participant: TestUser;

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  participant = await createTestUser({ label: "rescore", withoutPassword: true });
});

afterAll(async () => {
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

async function scoredSubmission(seed: number, split: "dev" | "test" = "dev"): Promise<string> {
  const submission = await submitLines(predictionLines(release, split, "open", 0.4, seed), { userId: participant.id });
  expect(await processSubmission(submission.id)).toBe("scored");
  return submission.id;
}

describe("queueStaleScores", () => {
  it("queues scores of an older scorer version or gold once, and nothing once they are re-scored", async () => {
    const current = await scoredSubmission(41);
    const oldVersion = await scoredSubmission(42);
    const oldGold = await scoredSubmission(43);
    expect(SCORER_VERSION).toBe("1.1.0");
    expect(PLATFORM_SCORING_VERSION).toBe("1.3.0");
    await db.score.update({ where: { submissionId: oldVersion }, data: { scorerVersion: "1.0.0" } });
    await db.score.update({ where: { submissionId: oldGold }, data: { goldSha256: "0".repeat(64) } });

    const first = await queueStaleScores();
    expect(first.queued.sort()).toEqual([oldVersion, oldGold].sort());
    expect(first.pending).toEqual([]);
    // (The upload's own job, id = submission id, is still waiting too: no worker runs here.)
    const rescoreJobsOf = async (id: string) =>
      (await getScoringQueue().getJobs(["waiting", "delayed"])).filter((job) => job.id?.startsWith(`${id}-r`));
    expect(await rescoreJobsOf(oldVersion)).toHaveLength(1);

    // Idempotent: run again before any worker did anything.
    const second = await queueStaleScores();
    expect(second.queued).toEqual([]);
    expect(second.pending.sort()).toEqual([oldVersion, oldGold].sort());
    expect(await rescoreJobsOf(oldVersion)).toHaveLength(1);
    expect(await rescoreJobsOf(oldGold)).toHaveLength(1);

    for (const id of [oldVersion, oldGold]) expect(await processSubmission(id)).toBe("scored");
    const scores = await db.score.findMany({ where: { submissionId: { in: [current, oldVersion, oldGold] } } });
    expect(scores.map((score) => score.scorerVersion)).toEqual(["1.3.0", "1.3.0", "1.3.0"]);
    expect(await queueStaleScores()).toEqual({ queued: [], pending: [], invalid: [] });
  });

  it("re-scores a score of the previous platform version from its stored outcomes, without its file, to the same numbers and with its slices", async () => {
    const id = await scoredSubmission(44, "test");
    const before = await db.score.findUniqueOrThrow({ where: { submissionId: id } });
    // A score from before the slices: platform version 1.1.0, no slice reports. Its file is gone, so only the stored outcomes can serve.
    await db.score.update({ where: { submissionId: id }, data: { scorerVersion: "1.1.0", feedbackReport: Prisma.DbNull, rankingReport: Prisma.DbNull } });
    await db.submission.update({ where: { id }, data: { fileSha256: "f".repeat(64) } });
    expect(await processSubmission(id)).toBe("scored");
    const after = await db.score.findUniqueOrThrow({ where: { submissionId: id } });
    expect(after.scorerVersion).toBe("1.3.0");
    expect(after.report).toEqual(before.report);
    expect(Buffer.from(after.outcomes).equals(Buffer.from(before.outcomes))).toBe(true);
    expect(after.rankingReport).toEqual(before.rankingReport);
    expect(after.feedbackReport).toEqual(before.feedbackReport);
    expect(after.rankingReport).not.toBeNull();
  });
});

describe("re-scoring a release's baselines", () => {
  const unifiedPairs = async (entryId: string) =>
    (await db.comparison.findMany({ where: { entryId, family: "unified" }, select: { baselineId: true }, orderBy: { baselineId: "asc" } })).map((row) => row.baselineId);

  async function staleTestBaselinesAndEntry(seed: number): Promise<{ baselines: string[]; entry: string }> {
    const runs = await runBaselines(release.releaseId);
    const baselines = runs.filter((run) => run.split === "test").map((run) => run.submissionId);
    for (const run of runs) await processSubmission(run.submissionId);
    const entry = await scoredSubmission(seed, "test");
    expect(await unifiedPairs(entry)).toEqual([...baselines].sort());
    // A move of the platform's scoring version: every stored score carries the previous one.
    await db.score.updateMany({ data: { scorerVersion: "1.1.0" } });
    await queueStaleScores();
    return { baselines, entry };
  }

  it("redoes the split's comparisons once, when the last waiting baseline is scored, and every entry ends compared with every baseline", async () => {
    const { baselines, entry } = await staleTestBaselinesAndEntry(45);
    expect(baselines.length).toBeGreaterThanOrEqual(2);
    // The entry is re-scored first: its baselines all wait, so it has no family yet.
    expect(await processSubmission(entry)).toBe("scored");
    expect(await unifiedPairs(entry)).toEqual([]);
    const [last, ...others] = [...baselines].reverse();
    for (const baseline of others) {
      expect(await processSubmission(baseline)).toBe("scored");
      // Another baseline still waits: the entry's comparisons are left to the last one.
      expect(await unifiedPairs(entry)).toEqual([]);
    }
    expect(await processSubmission(last!)).toBe("scored");
    expect(await unifiedPairs(entry)).toEqual([...baselines].sort());
    const counts = await comparisonPairCounts([entry]);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
  });

  it("redoes them when the last waiting baseline fails instead", async () => {
    const { baselines, entry } = await staleTestBaselinesAndEntry(46);
    expect(await processSubmission(entry)).toBe("scored");
    const [failing, ...others] = baselines;
    for (const baseline of others) await processSubmission(baseline);
    expect(await unifiedPairs(entry)).toEqual([]);
    await markSubmissionFailed(failing!, "INTERNAL", "the test's fault");
    expect(await unifiedPairs(entry)).toEqual([...others].sort());
  });
});

describe("npm run rescore", () => {
  it("says which versions it re-scores to: platform scoring 1.3.0, whose reports are scorer 1.1.0's", async () => {
    const stale = await scoredSubmission(47);
    // This one carries the previous platform version (so does the baseline that failed above).
    await db.score.update({ where: { submissionId: stale }, data: { scorerVersion: "1.1.0" } });
    const run = await runRepoScript("scripts/ops/rescore.ts", []);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`^Queued \\d+ submission\\(s\\) for re-scoring to platform scoring ${PLATFORM_SCORING_VERSION.replaceAll(".", "\\.")}, whose reports are those of scorer ${SCORER_VERSION.replaceAll(".", "\\.")}\\.$`, "m"),
    );
    expect((await queueStaleScores()).pending).toContain(stale);
  });
});
