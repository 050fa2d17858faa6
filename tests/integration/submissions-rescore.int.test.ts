import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma";
import { getSharedRedis } from "@/lib/redis";
import { PLATFORM_SCORING_VERSION, SCORER_VERSION } from "@/lib/scoring/score-report";
import { processSubmission } from "@/lib/submissions/process-submission";
import { queueStaleScores } from "@/lib/submissions/queue-stale-scores";
import { getScoringQueue } from "@/lib/submissions/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { importSmallRelease, predictionLines, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { createTestUser, type TestUser } from "./support/users";

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
  participant = await createTestUser("rescore");
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
    // Protocol v1.2: a test score stored before the slices (scorer 1.1.0, no slice reports) is stale until re-scored.
    const beforeSlices = await scoredSubmission(44, "test");
    expect(SCORER_VERSION).toBe("1.1.0");
    expect(PLATFORM_SCORING_VERSION).toBe("1.2.0");
    await db.score.update({ where: { submissionId: oldVersion }, data: { scorerVersion: "1.0.0" } });
    await db.score.update({ where: { submissionId: oldGold }, data: { goldSha256: "0".repeat(64) } });
    await db.score.update({
      where: { submissionId: beforeSlices },
      data: { scorerVersion: SCORER_VERSION, feedbackReport: Prisma.DbNull, rankingReport: Prisma.DbNull, feedbackPrimary: null, rankingPrimary: null, rankingUnified: null },
    });

    const first = await queueStaleScores();
    expect(first.queued.sort()).toEqual([oldVersion, oldGold, beforeSlices].sort());
    expect(first.pending).toEqual([]);
    // (The upload's own job, id = submission id, is still waiting too: no worker runs here.)
    const rescoreJobsOf = async (id: string) =>
      (await getScoringQueue().getJobs(["waiting", "delayed"])).filter((job) => job.id?.startsWith(`${id}-r`));
    expect(await rescoreJobsOf(oldVersion)).toHaveLength(1);

    // Idempotent: run again before any worker did anything.
    const second = await queueStaleScores();
    expect(second.queued).toEqual([]);
    expect(second.pending.sort()).toEqual([oldVersion, oldGold, beforeSlices].sort());
    expect(await rescoreJobsOf(oldVersion)).toHaveLength(1);
    expect(await rescoreJobsOf(oldGold)).toHaveLength(1);

    for (const id of [oldVersion, oldGold, beforeSlices]) expect(await processSubmission(id)).toBe("scored");
    const scores = await db.score.findMany({ where: { submissionId: { in: [current, oldVersion, oldGold, beforeSlices] } } });
    expect(scores.map((score) => score.scorerVersion)).toEqual(["1.2.0", "1.2.0", "1.2.0", "1.2.0"]);
    // The re-scored test file has its slices again; the dev files have none.
    const rescored = scores.find((score) => score.submissionId === beforeSlices);
    expect([rescored?.feedbackReport, rescored?.rankingReport, rescored?.rankingPrimary].every((value) => value !== null)).toBe(true);
    expect(scores.filter((score) => score.submissionId !== beforeSlices).every((score) => score.rankingReport === null)).toBe(true);
    expect(await queueStaleScores()).toEqual({ queued: [], pending: [], invalid: [] });
  });
});
