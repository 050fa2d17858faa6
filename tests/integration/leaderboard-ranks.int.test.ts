import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBaselines } from "@/lib/domain/scoring/run-baselines";
import { db } from "@/lib/platform/db";
import { clearLeaderboardCache, getLeaderboard, setLeaderboardStampTtl } from "@/lib/domain/leaderboard/get-leaderboard";
import type { LeaderboardRow, LeaderboardView } from "@/lib/core/leaderboard/leaderboard-types";
import { getSharedRedis } from "@/lib/platform/redis";
import { importRelease } from "@/lib/domain/releases/import-release";
import { loadSplitGold } from "@/lib/domain/scoring/load-gold";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { killAllChildren } from "./support/processes";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { waitForAllSettled } from "./support/wait";
import { startWorker, type WorkerProcess } from "./support/workers";
import { createTestUser } from "@/testing/test-users";

/**
 * Protocol v1.2 sections 9, 12 and 13 on the bundled demo release (56 test
 * samples; with the tests' fixed IRC_SLICE_SECRET, 13 in the feedback slice
 * and 43 in the ranking slice). The stored section 9 comparison (the owner's
 * family) is on the feedback slice: Ada against the best open-world baseline
 * is b = 8, c = 0 there, chi2 = 7^2 / 8 = 6.125, p = 0.013328. Everything
 * public is on the ranking slice, where Ada is right on 23 and the baseline on
 * 17 of 43 (b = 17, c = 11) and Bo on 11 (Bo vs the baseline b = 8, c = 14).
 * McNemar's exact test (p = min(1, 2 P(X <= min(b, c))), X ~ Bin(b + c, 1/2),
 * worked out with exact fractions): Ada vs the baseline p = 0.344928, Bo vs
 * the baseline p = 0.286279; Holm in the baseline's section 13 family
 * {Ada, Bo} makes both 2 x 0.286279 = 0.572557, so the leaderboard's mark is
 * "no significant difference" with p >= 0.05 and the difference of the shown
 * values 53.5 - 39.5 = 14.0 points. The ranks, marks and family of every view
 * are checked against each other, and the cache follows a publication and a
 * hide.
 */

const DEMO = "data/demo-release";
const PREDICTIONS = "data/demo-predictions";
let worker: WorkerProcess | undefined;
const ids: Record<string, string> = {};

async function publish(file: string, systemName: string): Promise<string> {
  const owner = await createTestUser({ label: systemName.split(" ")[0]!.toLowerCase(), withoutPassword: true });
  const lines = (await readFile(path.join(PREDICTIONS, file), "utf8")).split("\n").filter((line) => line.trim() !== "");
  const submission = await submitLines(lines, { userId: owner.id, originalName: file });
  await db.submission.update({ where: { id: submission.id }, data: { publication: "PUBLISHED", publishedAt: new Date(), systemName } });
  return submission.id;
}

async function view(track: "open" | "closed" | "unified"): Promise<LeaderboardView> {
  const snapshot = await getLeaderboard({ track });
  if (snapshot === null) throw new Error("no active release");
  return snapshot.view;
}

/** Which samples at `positions` an open-world file gets right on the alias metric (tier 1 or 2, section 6). */
async function aliasRight(submissionId: string, positions: Uint32Array): Promise<boolean[]> {
  const score = await db.score.findUniqueOrThrow({ where: { submissionId } });
  return Array.from(positions, (position) => {
    const tier = score.outcomes[position] ?? 0;
    return tier === 1 || tier === 2;
  });
}

/** b: the first right and the second wrong; c: the reverse. */
function discordant(first: boolean[], second: boolean[]): { b: number; c: number } {
  let b = 0;
  let c = 0;
  first.forEach((isRight, index) => {
    if (isRight && !second[index]) b += 1;
    if (!isRight && second[index]) c += 1;
  });
  return { b, c };
}

async function testSlices() {
  const release = await db.datasetRelease.findFirstOrThrow({ where: { isActive: true } });
  const { slices } = await loadSplitGold(release.id, "test");
  if (slices === null) throw new Error("no slices");
  return slices;
}

const rowOf = (current: LeaderboardView, id: string): LeaderboardRow => {
  const row = current.rows.find((candidate) => candidate.key === id);
  if (!row) throw new Error(`no row ${id}`);
  return row;
};

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  setLeaderboardStampTtl(0);
  const release = await importRelease({ dir: DEMO, activate: true });
  const baselines = (await runBaselines(release.releaseId)).map((result) => result.submissionId);
  ids.ada = await publish("test-open.jsonl", "Ada-LLM few-shot (demo)");
  ids.bo = await publish("test-open-weak.jsonl", "Bo fine-tuned 1B (demo)");
  ids.cy = await publish("test-closed.jsonl", "Cy dense retriever (demo)");
  worker = await startWorker({ WORKER_CONCURRENCY: "2" });
  await waitForAllSettled([...baselines, ids.ada, ids.bo, ids.cy], { timeoutMs: 120_000, workers: [worker] });
  const open = await db.submission.findFirstOrThrow({ where: { releaseId: release.releaseId, split: "test", isBaseline: true, track: "open" } });
  ids.openBaseline = open.id;
  clearLeaderboardCache();
}, 240_000);

afterAll(async () => {
  setLeaderboardStampTtl(1000);
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

describe("[LEADERBOARD] Holm families and paired-test ranks on the demo", () => {
  it("the demo's test split has 13 feedback and 43 ranking samples", async () => {
    const slices = await testSlices();
    expect([slices.feedback.length, slices.ranking.length]).toEqual([13, 43]);
  });

  it("Ada vs the open-world baseline: p = 0.0133 in the open-world family of baselines, on the feedback slice (section 9)", async () => {
    const slices = await testSlices();
    const counts = discordant(await aliasRight(ids.ada!, slices.feedback), await aliasRight(ids.openBaseline!, slices.feedback));
    expect(counts).toEqual({ b: 8, c: 0 });
    const rows = await db.comparison.findMany({ where: { entryId: ids.ada, family: "track" } });
    expect(rows.map((row) => row.baselineId)).toEqual([ids.openBaseline]);
    expect(rows[0]).toMatchObject(counts);
    expect(rows[0]?.chi2).toBeCloseTo(6.125, 12);
    expect(rows[0]?.pHolm).toBeCloseTo(0.013328328780817555, 12);
    expect(rows[0]?.pHolm).toBe(rows[0]?.p);
  });

  it("the leaderboard's mark is the section 13 test in the baseline's family {Ada, Bo} on the ranking slice: p >= 0.05", async () => {
    const slices = await testSlices();
    const [ada, bo, baseline] = await Promise.all([ids.ada!, ids.bo!, ids.openBaseline!].map((id) => aliasRight(id, slices.ranking)));
    expect([ada, bo, baseline].map((right) => right!.filter(Boolean).length)).toEqual([23, 11, 17]);
    expect(discordant(ada!, baseline!)).toEqual({ b: 17, c: 11 });
    expect(discordant(bo!, baseline!)).toEqual({ b: 8, c: 14 });

    const open = await view("open");
    expect(open.bestBaseline?.id).toBe(ids.openBaseline);
    const adaRow = rowOf(open, ids.ada!);
    // Section 12: the public numbers are the ranking slice's, rounded; 23 / 43 = 0.53488, 17 / 43 = 0.39535.
    expect(adaRow.n).toBe(43);
    expect(adaRow.metrics.alias?.value).toBe(0.535);
    expect(rowOf(open, ids.openBaseline!).metrics.alias?.value).toBe(0.395);
    // Holm-adjusted exact p 0.572557 in the baseline's family: a verdict, a bucket and the difference of the shown values, never b, c or p.
    expect(adaRow.significance).toEqual({
      baselineId: ids.openBaseline,
      baselineName: open.bestBaseline?.name,
      metric: "alias",
      verdict: "no significant difference",
      pBucket: ">= 0.05",
      difference: 0.14,
    });
    // And so the baseline's rank does not count Ada: the two say the same thing.
    const baselineRow = rowOf(open, ids.openBaseline!);
    expect(baselineRow.rankReason?.better.some((better) => better.entryId === ids.ada)).toBe(false);
    // No pair of the three is separated (Ada vs Bo: b = 20, c = 8, exact p = 0.035698, 0.071396 after Holm in Bo's family): every rank interval is 1-3.
    expect([adaRow, rowOf(open, ids.bo!), baselineRow].map((row) => [row.rank, row.rankHi])).toEqual([
      [1, 3],
      [1, 3],
      [1, 3],
    ]);
    expect(open.readPair(ids.ada!, ids.bo!)).toEqual({ verdict: "no significant difference", pBucket: ">= 0.05", difference: 0.279 });
  });

  it("in every view, each rank interval is [1 + the entries its reason names, N - the entries it beats], and each mark agrees with the ranks", async () => {
    for (const track of ["open", "closed", "unified"] as const) {
      const current = await view(track);
      const best = current.bestBaseline;
      for (const row of current.rows) {
        if (row.kind === "reported") {
          expect(row.rank).toBeNull();
          continue;
        }
        expect(row.rank, `${track} ${row.system}`).toBe(1 + (row.rankReason?.better.length ?? 0));
        expect(row.rankHi, `${track} ${row.system}`).toBe((row.rankReason?.ranked ?? 0) - (row.rankReason?.beats ?? 0));
        const mark = row.significance;
        if (best === null || mark === null) continue;
        expect(Object.keys(mark).sort()).toEqual(["baselineId", "baselineName", "difference", "metric", "pBucket", "verdict"]);
        expect(current.readPair(row.key, best.id)).toEqual({ verdict: mark.verdict, pBucket: mark.pBucket, difference: mark.difference });
        const baselineRow = rowOf(current, best.id);
        const baselineNamesRow = baselineRow.rankReason?.better.some((better) => better.entryId === row.key);
        const rowNamesBaseline = row.rankReason?.better.some((better) => better.entryId === best.id);
        if (mark.verdict === "better") expect(baselineNamesRow).toBe(true);
        if (mark.verdict === "worse") expect(rowNamesBaseline).toBe(true);
        if (mark.verdict === "no significant difference") {
          expect(mark.pBucket).toBe(">= 0.05");
          expect(baselineNamesRow).toBe(false);
          expect(rowNamesBaseline).toBe(false);
        } else {
          expect(mark.pBucket).not.toBe(">= 0.05");
        }
      }
    }
  });

  it("compares each entry in its track's family and in the unified family of every baseline, identical baselines counted once", async () => {
    const baselines = await db.submission.findMany({ where: { isBaseline: true, split: "test" }, select: { id: true, track: true } });
    const cy = await db.comparison.findMany({ where: { entryId: ids.cy }, orderBy: { baselineId: "asc" } });
    const closedCount = baselines.filter((baseline) => baseline.track === "closed").length;
    expect(cy.filter((row) => row.family === "track")).toHaveLength(closedCount);
    expect(cy.filter((row) => row.family === "track").every((row) => row.metric === "hit@1")).toBe(true);
    expect(cy.filter((row) => row.family === "unified")).toHaveLength(baselines.length);
    expect(cy.filter((row) => row.family === "unified").every((row) => row.metric === "unified")).toBe(true);
    // A baseline marked identical carries the same counts as the one standing for it.
    for (const row of cy.filter((candidate) => candidate.identicalTo !== null)) {
      const standIn = cy.find((candidate) => candidate.family === row.family && candidate.baselineId === row.identicalTo);
      expect(standIn).toMatchObject({ b: row.b, c: row.c, pHolm: row.pHolm });
      expect(row.identicalTo! < row.baselineId).toBe(true);
    }
  });

  it("follows a hide and a publication (the cached view is rebuilt)", async () => {
    expect((await view("open")).rows.some((row) => row.key === ids.bo)).toBe(true);
    await db.submission.update({ where: { id: ids.bo }, data: { publication: "HIDDEN" } });
    const hidden = await view("open");
    expect(hidden.rows.some((row) => row.key === ids.bo)).toBe(false);
    // Without Bo, two entries are ranked and the baseline's family is {Ada} alone: Ada's p is no longer doubled
    // (exact p 0.344928, still >= 0.05), and every rank interval shrinks to 1-2.
    const ada = rowOf(hidden, ids.ada!);
    expect(ada.significance).toMatchObject({ verdict: "no significant difference", pBucket: ">= 0.05", difference: 0.14 });
    expect([ada.rank, ada.rankHi, ada.rankReason?.ranked]).toEqual([1, 2, 2]);
    await db.submission.update({ where: { id: ids.bo }, data: { publication: "PUBLISHED" } });
    const again = rowOf(await view("open"), ids.ada!);
    expect([again.rank, again.rankHi, again.rankReason?.ranked]).toEqual([1, 3, 3]);
  });
});
