import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import { readStoredReport } from "@/lib/core/scoring/stored-report";
import { replaceComparisons } from "@/lib/domain/scoring/store-comparisons";
import { storeScores } from "@/lib/domain/scoring/store-score";
import type { FamilyComparisonRow } from "@/lib/core/scoring/comparison-families";
import type { ScoreReport } from "@/lib/core/scoring/report-schema";
import { PLATFORM_SCORING_VERSION, SCORER_VERSION } from "@/lib/core/scoring/score-report";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { importSmallRelease, predictionLines, scoreOffline, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { createTestUser, type TestUser } from "@/testing/test-users";

/**
 * lib/domain/scoring/store-score.ts is the one writer of Score and Comparison rows (the worker, the
 * seeder and the fixtures): doubles that Prisma's own parameters move by an
 * ulp (0.1 + 0.2 = 0.30000000000000004) come back exactly, and a second write
 * replaces the first.
 */
let release: TestRelease;
let owner: TestUser;

const AWKWARD = 0.1 + 0.2;

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(11);
  owner = await createTestUser({ label: "scores-writer", withoutPassword: true });
});

afterAll(async () => {
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

async function submissionRow(id: string, isBaseline = false): Promise<string> {
  await db.submission.create({
    data: { id, userId: owner.id, releaseId: release.releaseId, split: "dev", track: "open", status: "SCORED", fileSha256: "a".repeat(64), fileBytes: 1, originalName: `${id}.jsonl`, sampleCount: 1, isBaseline },
  });
  return id;
}

function awkwardReport(): ScoreReport {
  const { report } = scoreOffline(release, "dev", predictionLines(release, "dev", "open", 0.4, 3).join("\n"), { seed: 42, resamples: 50 });
  if (report.track !== "open") throw new Error("expected an open-track report");
  return { ...report, metrics: { ...report.metrics, alias: AWKWARD, exact: 1 / 3 }, ci95: { ...report.ci95, alias: [AWKWARD / 3, 2 / 3] } };
}

describe("lib/domain/scoring/store-score.ts writers", () => {
  it("store a report and its headline numbers to the last digit, and a second write replaces the first", async () => {
    const id = await submissionRow("scoreswriter0000000000001");
    const report = awkwardReport();
    const outcomes = Uint8Array.from([1, 0, 2, 4, 0]);
    await storeScores(db, [{ submissionId: id, report: { ...report, n: 1 }, outcomes, goldSha256: "b".repeat(64) }]);
    await storeScores(db, [{ submissionId: id, report, outcomes, goldSha256: "c".repeat(64) }]);

    const rows = await db.score.findMany({ where: { submissionId: id } });
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(readStoredReport(row.report)).toEqual(report);
    expect(row.primary).toBe(AWKWARD);
    expect(row.unified).toBe(AWKWARD);
    expect(row.n).toBe(report.n);
    // The row records the platform's scoring version (protocol v1.3: the report plus its entity-keyed slices'), the report the scorer's.
    expect(report.scorer_version).toBe(SCORER_VERSION);
    expect(row.scorerVersion).toBe(PLATFORM_SCORING_VERSION);
    expect(row.scorerVersion).toBe("1.3.0");
    expect(row.goldSha256).toBe("c".repeat(64));
    expect([...row.outcomes]).toEqual([1, 0, 2, 4, 0]);
    expect(row.probeFlags).toBeNull();
    // No slices given (a dev file): none stored.
    expect([row.feedbackReport, row.rankingReport, row.feedbackPrimary, row.rankingPrimary, row.rankingUnified]).toEqual([null, null, null, null, null]);
  });

  it("store the two slices' reports and headline numbers to the last digit, and a write without slices clears them", async () => {
    const id = await submissionRow("scoreswriter0000000000004");
    const report = awkwardReport();
    if (report.track !== "open") throw new Error("expected an open-track report");
    const feedback: ScoreReport = { ...report, n: 2, metrics: { ...report.metrics, alias: AWKWARD / 3 } };
    const ranking: ScoreReport = { ...report, n: 3, metrics: { ...report.metrics, alias: 2 / 3 + 1e-12 } };
    const outcomes = Uint8Array.from([1, 0, 2, 4, 0]);
    await storeScores(db, [{ submissionId: id, report, outcomes, goldSha256: "d".repeat(64), slices: { feedback, ranking } }]);
    const row = await db.score.findUniqueOrThrow({ where: { submissionId: id } });
    expect(readStoredReport(row.feedbackReport)).toEqual(feedback);
    expect(readStoredReport(row.rankingReport)).toEqual(ranking);
    expect(row.feedbackPrimary).toBe(AWKWARD / 3);
    expect(row.rankingPrimary).toBe(2 / 3 + 1e-12);
    // The unified metric of an open-world report is its alias rate.
    expect(row.rankingUnified).toBe(2 / 3 + 1e-12);
    expect(row.primary).toBe(AWKWARD);

    await storeScores(db, [{ submissionId: id, report, outcomes, goldSha256: "d".repeat(64) }]);
    const replaced = await db.score.findUniqueOrThrow({ where: { submissionId: id } });
    expect([replaced.feedbackReport, replaced.rankingReport, replaced.feedbackPrimary, replaced.rankingPrimary, replaced.rankingUnified]).toEqual([null, null, null, null, null]);
  });

  it("replace an entry's comparisons, floats exact; no rows leaves none", async () => {
    const entry = await submissionRow("scoreswriter0000000000002");
    const baseline = await submissionRow("scoreswriter0000000000003", true);
    const row: FamilyComparisonRow = { baseline, family: "track", identical_to: null, metric: "alias", b: 3, c: 1, chi2: AWKWARD, p: 1 / 3, p_exact: AWKWARD / 7, p_holm: 2 / 3 };
    await replaceComparisons(db, [{ entryId: entry, rows: [{ ...row, b: 9 }] }]);
    await replaceComparisons(db, [{ entryId: entry, rows: [row] }]);
    const stored = await db.comparison.findMany({ where: { entryId: entry } });
    expect(stored.map(({ baselineId, family, identicalTo, metric, b, c, chi2, p, pExact, pHolm }) => ({ baselineId, family, identicalTo, metric, b, c, chi2, p, pExact, pHolm }))).toEqual([
      { baselineId: baseline, family: "track", identicalTo: null, metric: "alias", b: 3, c: 1, chi2: AWKWARD, p: 1 / 3, pExact: AWKWARD / 7, pHolm: 2 / 3 },
    ]);
    await replaceComparisons(db, [{ entryId: entry, rows: [] }]);
    expect(await db.comparison.count({ where: { entryId: entry } })).toBe(0);
  });
});
