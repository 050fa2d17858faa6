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
import { getEnv, sliceSecretOf } from "@/lib/platform/env";
import { goldVersionId } from "@/lib/domain/scoring/gold-version";
import { releaseGoldOf } from "@/lib/core/scoring/score-staleness";
import { independentPerturbedCounts, independentRate, independentViewOf, openCountsOf, type NoiseKey } from "./support/independent-perturbation";

/**
 * Protocol v1.3 sections 9, 12 and 13 on the bundled demo release (56 test
 * samples; with the tests' fixed IRC_SLICE_SECRET and slices keyed by the gold
 * entity, 14 in the feedback slice and 42 in the ranking slice, no entity in
 * both). The stored section 9 comparison (the owner's family) is on the
 * feedback slice and exact: Ada against the best open-world baseline is
 * b = 10, c = 3 there, chi2 = 6^2 / 13 = 2.769231, p = 0.096092. Everything
 * public is on the ranking slice, where Ada is right on 21, Bo on 11 and the
 * baseline on 14 of 42 (Ada vs the baseline b = 15, c = 8; Bo vs the baseline
 * b = 9, c = 12; Ada vs Bo b = 17, c = 7), and from perturbed counts: the
 * noise is keyed by the entries' ids, new in each run, so the shown values,
 * b', c', verdicts and rank intervals are computed again here from the
 * protocol's text (support/independent-perturbation.ts: the HMAC noise, the
 * running maximum, b' and c' from the shown counts and a perturbed discordant
 * total, McNemar's exact test, Holm in the worse entry's family) and the
 * platform's must equal them. The ranks, marks and family of every view are
 * checked against each other, and the cache follows a publication and a hide.
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

/** What the open view must show of these entries, computed independently from their outcomes (sections 12 and 13). */
async function expectedOpenView(entryIds: readonly string[]) {
  const slices = await testSlices();
  const release = await db.datasetRelease.findFirstOrThrow({ where: { isActive: true }, select: { name: true, goldSha256: true } });
  const key: NoiseKey = { secret: sliceSecretOf(getEnv()), releaseName: release.name, goldVersion: goldVersionId(releaseGoldOf(release.goldSha256, "test")!) };
  const n = slices.ranking.length;
  const entries = await Promise.all(
    entryIds.map(async (id) => {
      const score = await db.score.findUniqueOrThrow({ where: { submissionId: id } });
      const tiers = Array.from(slices.ranking, (position) => score.outcomes[position] ?? 0);
      const shown = independentPerturbedCounts(key, id, "all", n, openCountsOf(tiers)).alias!;
      return { id, shown, right: tiers.map((tier) => tier === 1 || tier === 2) };
    }),
  );
  const value = (id: string) => independentRate(entries.find((entry) => entry.id === id)!.shown, n);
  return {
    order: [...entries].sort((a, b) => b.shown - a.shown || Buffer.compare(Buffer.from(a.id), Buffer.from(b.id))).map((entry) => entry.id),
    value,
    difference: (a: string, b: string) => Math.round((value(a) - value(b)) * 1000) / 1000,
    view: independentViewOf(key, "alias", "all", entries),
  };
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
  it("the demo's test split has 14 feedback and 42 ranking samples, no entity in both", async () => {
    const slices = await testSlices();
    expect([slices.feedback.length, slices.ranking.length]).toEqual([14, 42]);
    const release = await db.datasetRelease.findFirstOrThrow({ where: { isActive: true } });
    const { gold } = await loadSplitGold(release.id, "test");
    const feedbackEntities = new Set(Array.from(slices.feedback, (position) => gold[position]!.qid));
    expect(Array.from(slices.ranking, (position) => gold[position]!.qid).filter((qid) => feedbackEntities.has(qid))).toEqual([]);
  });

  it("Ada vs the open-world baseline: p = 0.0961 in the open-world family of baselines, on the feedback slice (section 9)", async () => {
    const slices = await testSlices();
    const counts = discordant(await aliasRight(ids.ada!, slices.feedback), await aliasRight(ids.openBaseline!, slices.feedback));
    expect(counts).toEqual({ b: 10, c: 3 });
    const rows = await db.comparison.findMany({ where: { entryId: ids.ada, family: "track" } });
    expect(rows.map((row) => row.baselineId)).toEqual([ids.openBaseline]);
    expect(rows[0]).toMatchObject(counts);
    expect(rows[0]?.chi2).toBeCloseTo(36 / 13, 12);
    expect(rows[0]?.pHolm).toBeCloseTo(0.0960923294556733, 12);
    expect(rows[0]?.pHolm).toBe(rows[0]?.p);
  });

  it("the leaderboard's mark is the section 13 test in the baseline's family {Ada, Bo} on the ranking slice, from perturbed counts", async () => {
    const slices = await testSlices();
    const [ada, bo, baseline] = await Promise.all([ids.ada!, ids.bo!, ids.openBaseline!].map((id) => aliasRight(id, slices.ranking)));
    expect([ada, bo, baseline].map((right) => right!.filter(Boolean).length)).toEqual([21, 11, 14]);
    expect(discordant(ada!, baseline!)).toEqual({ b: 15, c: 8 });
    expect(discordant(bo!, baseline!)).toEqual({ b: 9, c: 12 });
    expect(discordant(ada!, bo!)).toEqual({ b: 17, c: 7 });

    const open = await view("open");
    const expected = await expectedOpenView([ids.ada!, ids.bo!, ids.openBaseline!]);
    // The view's best baseline is its only open-world one; rows are ordered by the shown (perturbed) count, ties by id.
    expect(open.bestBaseline?.id).toBe(ids.openBaseline);
    expect(open.rows.filter((row) => row.kind !== "reported").map((row) => row.key)).toEqual(expected.order);
    const adaRow = rowOf(open, ids.ada!);
    const baselineRow = rowOf(open, ids.openBaseline!);
    // Section 12: the public numbers are the ranking slice's perturbed counts, rounded to 0.1 point.
    expect(adaRow.n).toBe(42);
    expect(adaRow.metrics.alias?.value).toBe(expected.value(ids.ada!));
    expect(baselineRow.metrics.alias?.value).toBe(expected.value(ids.openBaseline!));
    // A verdict, a bucket and the difference of the shown values, never b, c or p: the independent section 13 test on b', c'.
    expect(adaRow.significance).toEqual({
      baselineId: ids.openBaseline,
      baselineName: open.bestBaseline?.name,
      metric: "alias",
      ...expected.view.verdict(ids.ada!, ids.openBaseline!),
      difference: expected.difference(ids.ada!, ids.openBaseline!),
    });
    for (const id of [ids.ada!, ids.bo!, ids.openBaseline!]) expect([rowOf(open, id).rank, rowOf(open, id).rankHi], id).toEqual(expected.view.ranks.get(id));
    expect(open.readPair(ids.ada!, ids.bo!)).toEqual({ ...expected.view.verdict(ids.ada!, ids.bo!), difference: expected.difference(ids.ada!, ids.bo!) });
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
    // Without Bo, two entries are ranked and the baseline's family is {Ada} alone: Ada's p is no longer Holm-adjusted.
    const withoutBo = await expectedOpenView([ids.ada!, ids.openBaseline!]);
    const ada = rowOf(hidden, ids.ada!);
    expect(ada.significance).toMatchObject({ ...withoutBo.view.verdict(ids.ada!, ids.openBaseline!), difference: withoutBo.difference(ids.ada!, ids.openBaseline!) });
    expect([ada.rank, ada.rankHi, ada.rankReason?.ranked]).toEqual([...withoutBo.view.ranks.get(ids.ada!)!, 2]);
    await db.submission.update({ where: { id: ids.bo }, data: { publication: "PUBLISHED" } });
    const withBo = await expectedOpenView([ids.ada!, ids.bo!, ids.openBaseline!]);
    const again = rowOf(await view("open"), ids.ada!);
    expect([again.rank, again.rankHi, again.rankReason?.ranked]).toEqual([...withBo.view.ranks.get(ids.ada!)!, 3]);
  });
});
