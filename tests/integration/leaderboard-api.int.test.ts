import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getEntry } from "@/app/api/entries/[id]/route";
import { GET as getEntryExport } from "@/app/api/entries/[id]/export/route";
import { GET as getEntries } from "@/app/api/entries/route";
import { GET as getLeaderboardExport } from "@/app/api/leaderboard/export/route";
import { GET as getLeaderboardApi } from "@/app/api/leaderboard/route";
import { db } from "@/lib/platform/db";
import { setLeaderboardStampTtl } from "@/lib/domain/leaderboard/get-leaderboard";
import { isAppError } from "@/lib/core/errors";
import { comparePublicEntries } from "@/lib/domain/leaderboard/compare-public-entries";
import { parseCsv } from "@/testing/parse-csv";
import { findPublicEntry } from "@/lib/domain/leaderboard/get-public-entry";
import { loadSplitGold } from "@/lib/domain/scoring/load-gold";
import { goldVersionId } from "@/lib/domain/scoring/gold-version";
import { releaseGoldOf } from "@/lib/core/scoring/score-staleness";
import { getEnv, sliceSecretOf } from "@/lib/platform/env";
import {
  callJson,
  closedPredictions,
  importLeaderboardRelease,
  openPredictions,
  storeScoredEntries,
  type LeaderboardFixtureRelease,
} from "@/testing/leaderboard/integration-fixtures";
import { assertTestDatabase } from "@/testing/local-database";
import { resetDatabase } from "./support/reset";
import { expectedView, type FixtureModelEntry, type ViewName } from "./support/independent-leaderboard";
import type { NoiseKey } from "./support/independent-perturbation";

/**
 * The public leaderboard API against a real PostgreSQL: shapes, caching, 422s,
 * and that nothing but published test entries and baselines ever shows.
 *
 * 56 test samples; who is right where (index i in gold order):
 *   Open Alpha      open, published   alias-right unless i % 4 == 0 (i % 4 == 1 by alias)
 *   Open Baseline   open, baseline    exact when i is even
 *   Closed Gamma    closed, published gold ranked first when i % 3 == 0, else second
 *   Closed Baseline closed, baseline  gold first when i < 10
 * plus private, pending, hidden, published-dev entries that must stay out,
 * and a dev baseline (public, but not on the test leaderboard).
 *
 * Everything public is on the ranking slice (protocol section 12, v1.3):
 * slices are keyed by the gold entity (two samples each, 2k and 2k + 1), so
 * with the tests' fixed IRC_SLICE_SECRET the ranking slice is 21 entities, 42
 * of the 56 test samples: all but 2, 3, 8-11, 26-31, 46, 47 (checked against
 * loadSplitGold below). Exact counts on those 42, by hand:
 *   Open Alpha      alias-right on 30 (all but 0, 4, 12, 16, 20, 24, 32, 36, 40, 44, 48, 52), exact on 18
 *   Open Baseline   right on the 21 even ones
 *   Closed Gamma    hit@1 on the 15 multiples of 3 (0, 6, 12, 15, ..., 54), hit@3 on all 42
 *   Closed Baseline hit@1 on the 6 below 10 (0, 1, 4, 5, 6, 7)
 * Exact pairs (b = first right and second wrong, c the reverse):
 *   Alpha vs Open Baseline   b = 21 (the odd ones), c = 12 (the multiples of 4)
 *   Alpha vs Gamma           b = 20, c = 5 (the multiples of 12: 0, 12, 24, 36, 48)
 *   Alpha vs Closed Baseline b = 26, c = 2 (0, 4)
 *   Gamma vs Open Baseline   b = 6,  c = 12
 *   Closed Baseline vs Open  b = 3,  c = 18
 *   Closed Baseline vs Gamma b = 4,  c = 13
 * None of these is what the public sees. Every public number comes from
 * counts perturbed by seeded noise (section 12): a count k shows as
 * k' = min(n, max(0, k + z)) (then each cumulative series' running maximum),
 * rounded half up on integers; a pair's b', c' come from the difference d of
 * the two shown counts and the perturbed discordant total max(|d|, b + c + z).
 * Part of z is keyed by the gold version id, an HMAC under NEXTAUTH_SECRET
 * that each checkout draws for itself, so the shown numbers, orders and
 * verdicts differ between checkouts: the expectations below are worked out at
 * run time from the exact counts above (support/independent-leaderboard.ts,
 * written from the protocol's text, not lib/core/disclosure), with the file's
 * noise key. With 42 samples the noise (about 4.5 samples a count) moves a
 * verdict easily: a pair can read "better" or "no significant difference"
 * depending on the draw, and only the shown counts decide which.
 */

type ApiRow = {
  rank: number | null;
  rank_lo: number | null;
  rank_hi: number | null;
  kind: string;
  split_part: string;
  id: string | null;
  system: string;
  track: string;
  n: number | null;
  stale: boolean;
  metrics: Record<string, { value: number; ci95: [number, number] | null } | null>;
  by_type: Record<string, { n: number; value: number | null; ci95: [number, number] | null }> | null;
  significance: { baseline_id: string; baseline: string; metric: string; verdict: string; p_bucket: string; difference: number } | null;
  url: string | null;
};
type ApiBody = { release: { name: string; version: string }; track: string; type: string | null; rank_metric: string; best_baseline: { name: string } | null; entries: ApiRow[] };

const RELEASE_NAME = "leaderboard-int";
const HIDDEN_NAMES = ["Private Secret", "Pending Entry", "Hidden Entry", "Dev Published"];

let release: LeaderboardFixtureRelease;
let ownerId: string;
let noise: NoiseKey;
/** The ranking slice's positions (gold order): every public number is of these. */
let positions: number[];

// Who is right where, by gold-order index: the predictions below are made from these, and the expectations worked out from them.
const alphaTier = (i: number): 0 | 1 | 2 => (i % 4 === 0 ? 0 : i % 4 === 1 ? 2 : 1);
const openBaselineTier = (i: number): 0 | 1 => (i % 2 === 0 ? 1 : 0);
const gammaRank = (i: number): 1 | 2 => (i % 3 === 0 ? 1 : 2);
const closedBaselineRank = (i: number): 1 | 2 => (i < 10 ? 1 : 2);
const MODEL: FixtureModelEntry[] = [
  { id: "entryalpha", system: "Open Alpha", isBaseline: false, track: "open", tier: alphaTier },
  { id: "baseopen", system: "Open Baseline", isBaseline: true, track: "open", tier: openBaselineTier },
  { id: "entrygamma", system: "Closed Gamma", isBaseline: false, track: "closed", rank: gammaRank },
  { id: "baseclosed", system: "Closed Baseline", isBaseline: true, track: "closed", rank: closedBaselineRank },
];
const TIER_ANSWER = ["miss", "exact", "alias"] as const;
const PAPER = { system: "Paper system", alias: 0.6 };

/** The public view, worked out independently from the exact outcomes on the ranking slice. */
const expected = (view: ViewName) => expectedView(noise, MODEL, positions, view);
const systemOf = (id: string) => MODEL.find((entry) => entry.id === id)!.system;
/** The rows of a view best first: entries by perturbed count over n, the paper at its reported alias (the unified metric of an open row). */
function expectedRowOrder(view: ViewName): string[] {
  const model = expected(view);
  const rows = model.order.map((id) => ({ system: systemOf(id), order: model.estimate(id) }));
  if (view !== "closed") rows.push({ system: PAPER.system, order: PAPER.alias });
  return rows.sort((x, y) => y.order - x.order).map((row) => row.system);
}

function request(path: string, headers: Record<string, string> = {}): Request {
  return new Request(`http://127.0.0.1${path}`, { headers });
}

async function leaderboard(query: string): Promise<{ status: number; headers: Headers; body: ApiBody; text: string }> {
  const result = await callJson(await getLeaderboardApi(request(`/api/leaderboard${query}`)));
  return { ...result, body: result.body as ApiBody };
}

function params(id: string) {
  return { params: Promise.resolve({ id }) };
}

beforeAll(async () => {
  assertTestDatabase();
  // Every request re-reads the version stamp, so each change below shows at once.
  setLeaderboardStampTtl(0);
  await resetDatabase();
  release = await importLeaderboardRelease(RELEASE_NAME, 56);
  const owner = await db.user.create({ data: { email: "owner@leaderboard-int.invalid", displayName: "Team Int", affiliation: "Test Lab" } });
  const system = await db.user.create({ data: { email: "system@leaderboard-int.invalid", displayName: "IRC-Bench maintainers", isSystem: true } });
  ownerId = owner.id;
  const test = release.gold.test;
  const dev = release.gold.dev;
  const allExact = () => "exact" as const;
  await storeScoredEntries(release, [
    { id: "entryalpha", userId: owner.id, split: "test", publication: "PUBLISHED", systemName: "Open Alpha", track: "open", parameterCount: 8_000_000_000n, isOpenWeights: true, predictions: openPredictions(test, (i) => TIER_ANSWER[alphaTier(i)]) },
    { id: "baseopen", userId: system.id, split: "test", publication: "PRIVATE", isBaseline: true, systemName: "Open Baseline", track: "open", predictions: openPredictions(test, (i) => TIER_ANSWER[openBaselineTier(i)]) },
    { id: "entrygamma", userId: owner.id, split: "test", publication: "PUBLISHED", systemName: "Closed Gamma", track: "closed", predictions: closedPredictions(test, release.kb, (i) => gammaRank(i) === 1) },
    { id: "baseclosed", userId: system.id, split: "test", publication: "PRIVATE", isBaseline: true, systemName: "Closed Baseline", track: "closed", predictions: closedPredictions(test, release.kb, (i) => closedBaselineRank(i) === 1) },
    { id: "entryprivate", userId: owner.id, split: "test", publication: "PRIVATE", systemName: "Private Secret", track: "open", predictions: openPredictions(test, allExact) },
    { id: "entrypending", userId: owner.id, split: "test", publication: "PENDING", systemName: "Pending Entry", track: "open", predictions: openPredictions(test, allExact) },
    { id: "entryhidden", userId: owner.id, split: "test", publication: "HIDDEN", systemName: "Hidden Entry", track: "open", predictions: openPredictions(test, allExact) },
    { id: "entrydev", userId: owner.id, split: "dev", publication: "PUBLISHED", systemName: "Dev Published", track: "open", predictions: openPredictions(dev, allExact) },
    { id: "basedev", userId: system.id, split: "dev", publication: "PRIVATE", isBaseline: true, systemName: "Dev Baseline", track: "open", predictions: openPredictions(dev, (i) => (i % 2 === 0 ? "exact" : "miss")) },
  ]);
  await db.reportedResult.create({
    data: { releaseId: release.releaseId, name: PAPER.system, track: "open", split: "test", metrics: { exact: 0.5, alias: PAPER.alias, contain: 0.61, jaccard: 0.7 }, source: "A paper, Table 4" },
  });
  const gold = (await db.datasetRelease.findUniqueOrThrow({ where: { id: release.releaseId }, select: { goldSha256: true } })).goldSha256;
  noise = { secret: sliceSecretOf(getEnv()), releaseName: RELEASE_NAME, goldVersion: goldVersionId(releaseGoldOf(gold, "test")!) };
  positions = Array.from((await loadSplitGold(release.releaseId, "test")).slices?.ranking ?? []);
});

afterAll(async () => {
  await resetDatabase();
});

describe("the fixture's ranking slice", () => {
  it("has the 42 positions the expectations of this file are worked out on", async () => {
    const slices = (await loadSplitGold(release.releaseId, "test")).slices;
    const ranking = Array.from(slices?.ranking ?? []);
    const feedback = [2, 3, 8, 9, 10, 11, 26, 27, 28, 29, 30, 31, 46, 47];
    expect(ranking).toEqual(Array.from({ length: 56 }, (_, i) => i).filter((i) => !feedback.includes(i)));
    expect(Array.from(slices?.feedback ?? [])).toEqual(feedback);
    expect(positions).toEqual(ranking);
    // Section 12 (v1.3): slices are keyed by the gold entity, so every sample of one entity is in the same slice.
    const qidsOf = (indices: readonly number[]) => new Set(indices.map((i) => release.gold.test[i]?.qid));
    expect([...qidsOf(ranking)].filter((qid) => qidsOf(feedback).has(qid))).toEqual([]);
    expect(qidsOf(ranking).size).toBe(21);
    const count = (isRight: (i: number) => boolean) => ranking.filter(isRight).length;
    expect([count((i) => i % 4 !== 0), count((i) => i % 4 >= 2), count((i) => i % 2 === 0), count((i) => i % 3 === 0), count((i) => i < 10)]).toEqual([30, 18, 21, 15, 6]);
    // Alpha vs Open Baseline: b = Alpha right and the baseline wrong (the odd ones), c = the multiples of 4.
    expect([count((i) => i % 2 === 1), count((i) => i % 4 === 0)]).toEqual([21, 12]);
    // Alpha vs Gamma on the unified metric: b = i % 4 != 0 and i % 3 != 0, c = the multiples of 12.
    expect([count((i) => i % 4 !== 0 && i % 3 !== 0), count((i) => i % 12 === 0)]).toEqual([20, 5]);
    // The other pairs of the top of this file.
    expect([count((i) => i % 4 !== 0 && i >= 10), count((i) => i % 4 === 0 && i < 10)]).toEqual([26, 2]);
    expect([count((i) => i % 3 === 0 && i % 2 === 1), count((i) => i % 3 !== 0 && i % 2 === 0)]).toEqual([6, 12]);
    expect([count((i) => i < 10 && i % 2 === 1), count((i) => i >= 10 && i % 2 === 0)]).toEqual([3, 18]);
    expect([count((i) => i < 10 && i % 3 !== 0), count((i) => i >= 10 && i % 3 === 0)]).toEqual([4, 13]);
    expect(count((i) => release.gold.test[i]?.type === "Person")).toBe(8);
    // The model the expectations are worked out from agrees with these hand counts.
    const open = expected("open");
    expect(open.pair("entryalpha", "baseopen").b - open.pair("entryalpha", "baseopen").c).toBe(open.overall("entryalpha").counts.alias! - open.overall("baseopen").counts.alias!);
  });
});

describe("GET /api/leaderboard", () => {
  it("lists published test entries, test baselines and reported rows of the open-world track", async () => {
    const { status, body } = await leaderboard("?track=open");
    expect(status).toBe(200);
    expect(body.release).toEqual({ name: RELEASE_NAME, version: "1.0" });
    expect(body.track).toBe("open");
    expect(body.rank_metric).toBe("alias");
    // Rows by the public point estimate: each entry's perturbed alias count over n (exact: Alpha 30 of 42, the baseline 21), the paper at its 0.6.
    const order = expectedRowOrder("open");
    expect(body.entries.map((row) => row.system)).toEqual(order);
    const kindOf: Record<string, string> = { "Open Alpha": "submission", "Paper system": "reported", "Open Baseline": "baseline" };
    expect(body.entries.map((row) => row.kind)).toEqual(order.map((system) => kindOf[system]));
    // Section 12: a paper's numbers stand beside ranking-slice numbers, so each row says which samples it is on.
    expect(body.entries.map((row) => row.split_part)).toEqual(order.map((system) => (system === "Paper system" ? "whole test split" : "ranking slice")));
    expect(body.best_baseline?.name).toBe("Open Baseline");
  });

  it("gives the entry's metrics with intervals, per type, and its mark against the best baseline", async () => {
    const { body } = await leaderboard("?track=open");
    const alpha = body.entries.find((row) => row.system === "Open Alpha");
    // On the ranking slice: 30 of 42 right on alias, 18 exact, each count perturbed, then shown to 0.1 point (section 12).
    const open = expected("open");
    const shown = open.overall("entryalpha");
    expect(alpha?.metrics.alias?.value).toBe(shown.values.alias);
    expect(alpha?.metrics.exact?.value).toBe(shown.values.exact);
    // The interval covers Binomial(n, v) plus the noise, and contains the shown value.
    expect(alpha?.metrics.alias?.ci95).toEqual(shown.ci95.alias);
    const [low, high] = alpha?.metrics.alias?.ci95 ?? [0, 0];
    expect(low).toBeLessThanOrEqual(shown.values.alias!);
    expect(high).toBeGreaterThanOrEqual(shown.values.alias!);
    expect(alpha?.n).toBe(42);
    expect(Object.keys(alpha?.by_type ?? {})).toHaveLength(7);
    expect(Object.values(alpha?.by_type ?? {}).reduce((sum, group) => sum + group.n, 0)).toBe(42);
    // vs Open Baseline: exact b = 21, c = 12 (p = 0.163); shown, b' and c' from the two shown counts and the perturbed
    // discordant total, McNemar's exact p in the baseline's family {Alpha}: a verdict, a bucket and the difference of the
    // shown values, never b, c or p (section 12).
    expect(alpha?.significance).toEqual({ baseline_id: "baseopen", baseline: "Open Baseline", metric: "alias", ...open.reading("entryalpha", "baseopen") });
    // Alpha's rank interval: 1 + those significantly better, 2 - those it is significantly better than (1-2 when the pair is not separated).
    const [rankLo, rankHi] = open.rankInterval("entryalpha");
    expect([alpha?.rank, alpha?.rank_lo, alpha?.rank_hi]).toEqual([rankLo, rankLo, rankHi]);
    expect(alpha?.url).toBe("/entries/entryalpha");
    const paper = body.entries.find((row) => row.kind === "reported");
    expect(paper).toMatchObject({ rank: null, id: null, significance: null, metrics: { alias: { value: 0.6, ci95: null } } });
  });

  it("serves the closed-world and unified views", async () => {
    const closed = await leaderboard("?track=closed");
    const closedModel = expected("closed");
    expect(closed.body.entries.map((row) => row.system)).toEqual(expectedRowOrder("closed"));
    const gammaClosed = closed.body.entries.find((row) => row.system === "Closed Gamma");
    // 15 of the 42 ranking samples are multiples of 3 (0.357 exact), hit@3 on all 42: each count perturbed (hit@3 at least
    // hit@1's shown count, at most n), shown to 0.1 point (protocol section 12).
    expect(gammaClosed?.metrics["hit@1"]?.value).toBe(closedModel.value("entrygamma"));
    expect(gammaClosed?.metrics["hit@3"]?.value).toBe(closedModel.overall("entrygamma").values["hit@3"]);
    for (const metric of ["hit@5", "hit@10", "mrr", "alias_hit@1"]) expect(gammaClosed?.metrics[metric]?.value, metric).toBe(closedModel.overall("entrygamma").values[metric]);
    // Gamma vs Closed Baseline: exact b = 13, c = 4 (p = 0.049); the shown reading is the test of b', c'.
    expect(gammaClosed?.significance).toMatchObject({ baseline: "Closed Baseline", ...closedModel.reading("entrygamma", "baseclosed") });
    expect(closed.body.entries.map((row) => [row.rank_lo, row.rank_hi])).toEqual(closedModel.order.map((id) => closedModel.rankInterval(id)));

    const unified = await leaderboard("?track=unified");
    const unifiedModel = expected("unified");
    expect(unified.body.entries.map((row) => row.system).sort()).toEqual(["Closed Baseline", "Closed Gamma", "Open Alpha", "Open Baseline", "Paper system"]);
    expect(unified.body.entries.map((row) => row.system)).toEqual(expectedRowOrder("unified"));
    const gamma = unified.body.entries.find((row) => row.system === "Closed Gamma");
    // The unified metric of a closed entry is alias_hit@1 (exact 15 of 42, as hit@1), perturbed under its own key.
    expect(gamma?.metrics.unified?.value).toBe(unifiedModel.value("entrygamma"));
    // The best baseline by perturbed count (exact: the open one's 21 against the closed one's 6).
    const best = unifiedModel.bestBaseline!;
    expect(unified.body.best_baseline?.name).toBe(best.system);
    // Rank intervals from the unified view's Holm families (each entry's tests with the other three), on the shown b', c':
    // pairs of one track on their track's primary metric, across tracks on the unified one.
    const intervals = Object.fromEntries(unified.body.entries.filter((row) => row.kind !== "reported").map((row) => [row.system, [row.rank_lo, row.rank_hi]]));
    expect(intervals).toEqual(Object.fromEntries(MODEL.map((entry) => [entry.system, unifiedModel.rankInterval(entry.id)])));
    // Gamma vs the best baseline (exact, against the open one: b = 6, c = 12), Holm-adjusted in the family of the one behind.
    const markOf = (id: string) => (id === best.id ? null : { baseline_id: best.id, baseline: best.system, metric: "unified", ...unifiedModel.reading(id, best.id) });
    expect(gamma?.significance).toEqual(markOf("entrygamma"));
    const closedBaseline = unified.body.entries.find((row) => row.system === "Closed Baseline");
    expect(closedBaseline?.significance).toEqual(markOf("baseclosed"));
    expect(unified.text).not.toMatch(/"b"|"c"|"chi2"|"p_holm"|"p_exact"|"p"/);
  });

  it("ranks one entity type on its own samples", async () => {
    const { status, body } = await leaderboard("?track=open&type=person");
    expect(status).toBe(200);
    expect(body.type).toBe("Person");
    const alpha = body.entries.find((row) => row.system === "Open Alpha");
    // 8 of the 42 ranking samples are people (four entities).
    expect(alpha?.n).toBe(8);
    expect(alpha?.by_type).toBeNull();
    expect(alpha?.significance).toBeNull();
  });

  it("never shows private, pending, hidden or dev entries", async () => {
    for (const track of ["open", "closed", "unified"]) {
      const { text } = await leaderboard(`?track=${track}`);
      for (const name of [...HIDDEN_NAMES, "Dev Baseline"]) expect(text).not.toContain(name);
    }
  });

  it("pages its rows best first with limit and offset", async () => {
    const order = expectedRowOrder("unified");
    const first = await leaderboard("?track=unified&limit=2");
    expect(first.body).toMatchObject({ total: 5, offset: 0, limit: 2, next: "/api/leaderboard?track=unified&offset=2&limit=2" });
    expect(first.body.entries.map((row) => row.system)).toEqual(order.slice(0, 2));
    const last = await leaderboard("?track=unified&limit=2&offset=4");
    expect(last.body).toMatchObject({ total: 5, offset: 4, next: null });
    expect(last.body.entries.map((row) => row.system)).toEqual(order.slice(4));
    expect(last.headers.get("etag")).not.toBe(first.headers.get("etag"));
  });

  it("sends caching headers and answers 304 to a matching If-None-Match", async () => {
    const first = await leaderboard("?track=open");
    expect(first.headers.get("cache-control")).toMatch(/^public, max-age=\d+, s-maxage=\d+/);
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^".+"$/);
    const again = await getLeaderboardApi(request("/api/leaderboard?track=open", { "If-None-Match": etag }));
    expect(again.status).toBe(304);
  });

  it("changes when an entry is published", async () => {
    const before = await leaderboard("?track=open");
    await db.submission.update({ where: { id: "entryhidden" }, data: { publication: "PUBLISHED", publishedAt: new Date() } });
    try {
      const after = await leaderboard("?track=open");
      expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
      expect(after.body.entries.map((row) => row.system)).toContain("Hidden Entry");
    } finally {
      await db.submission.update({ where: { id: "entryhidden" }, data: { publication: "HIDDEN" } });
    }
    const restored = await leaderboard("?track=open");
    expect(restored.text).not.toContain("Hidden Entry");
  });

  it("marks scores stale when the release's gold changes", async () => {
    const row = await db.datasetRelease.findUniqueOrThrow({ where: { id: release.releaseId } });
    const gold = row.goldSha256 as Record<string, string>;
    await db.datasetRelease.update({ where: { id: release.releaseId }, data: { goldSha256: { ...gold, test: "0".repeat(64) } } });
    try {
      const { body } = await leaderboard("?track=open");
      expect(body.entries.filter((entry) => entry.kind !== "reported").every((entry) => entry.stale)).toBe(true);
    } finally {
      await db.datasetRelease.update({ where: { id: release.releaseId }, data: { goldSha256: gold } });
    }
    const { body } = await leaderboard("?track=open");
    expect(body.entries.some((entry) => entry.stale)).toBe(false);
  });

  it("answers 422 naming each bad parameter", async () => {
    const bad = await leaderboard("?track=everything&type=Planet&page=3");
    expect(bad.status).toBe(422);
    const problems = (bad.body as unknown as { error: { problems: { message: string }[] } }).error.problems.map((problem) => problem.message);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain('"track"');
    expect(problems.join("\n")).toContain('unknown entity type "Planet"');
    expect(problems.join("\n")).toContain('unknown query parameter "page"');
    expect(bad.headers.get("cache-control")).toBe("no-store");
  });
});

describe("GET /api/entries and /api/entries/[id]", () => {
  it("lists public entries of both splits: published test entries and every baseline", async () => {
    const result = await callJson(await getEntries(request("/api/entries")));
    expect(result.status).toBe(200);
    const names = (result.body as { entries: { system: string }[] }).entries.map((entry) => entry.system).sort();
    expect(names).toEqual(["Closed Baseline", "Closed Gamma", "Dev Baseline", "Open Alpha", "Open Baseline"]);
    const baselines = await callJson(await getEntries(request("/api/entries?kind=baselines&split=test")));
    expect((baselines.body as { entries: { system: string }[] }).entries.map((entry) => entry.system).sort()).toEqual(["Closed Baseline", "Open Baseline"]);
    expect((await getEntries(request("/api/entries?split=train"))).status).toBe(422);
  });

  it("gives one entry's scores, intervals, per-type and per-collection tables and comparisons, and no per-sample data", async () => {
    const result = await callJson(await getEntry(request("/api/entries/entryalpha"), params("entryalpha")));
    expect(result.status).toBe(200);
    expect(result.headers.get("etag")).toBeTruthy();
    const body = result.body as {
      system: string;
      team: string;
      paper_url: string | null;
      parameter_count: number;
      score: { n: number; stale: boolean; scorer_version: string; metrics: Record<string, number>; ci95: Record<string, [number, number]>; by_type: Record<string, { n: number }>; by_collection: Record<string, { n: number }> };
      comparisons: { baseline_id: string; baseline: string; view: string; metric: string; verdict: string; p_bucket: string; difference: number }[];
    };
    expect(body.system).toBe("Open Alpha");
    expect(body.team).toBe("Team Int");
    expect(body.parameter_count).toBe(8e9);
    // The ranking slice (section 12): 30 of 42, from perturbed counts, the leaderboard's numbers.
    const open = expected("open");
    expect(body.score.n).toBe(42);
    expect(body.score.metrics).toEqual(open.overall("entryalpha").values);
    expect(body.score.ci95.alias).toHaveLength(2);
    expect(body.score.ci95).toEqual(open.overall("entryalpha").ci95);
    expect(Object.values(body.score.by_type).reduce((sum, group) => sum + group.n, 0)).toBe(42);
    expect(Object.values(body.score.by_collection).reduce((sum, group) => sum + group.n, 0)).toBe(42);
    // One reading per baseline of its track's view (section 13), the leaderboard's mark (exact b = 21, c = 12; shown b', c').
    expect(body.comparisons).toEqual([{ baseline_id: "baseopen", baseline: "Open Baseline", view: "Open-world, all types", metric: "alias", ...open.reading("entryalpha", "baseopen") }]);
    expect(result.text).not.toMatch(/outcomes|"qid"|Synthetic Place|"b"|"c"|"chi2"|"p_holm"|"p_exact"/);
  });

  it("answers 404 for entries the public may not see, exactly as for unknown ids", async () => {
    for (const id of ["entryprivate", "entrypending", "entryhidden", "entrydev", "no-such-entry"]) {
      const result = await callJson(await getEntry(request(`/api/entries/${id}`), params(id)));
      expect(result.status).toBe(404);
      expect((result.body as { error: { message: string } }).error.message).toBe(`No public entry has the id "${id}".`);
    }
    expect(await findPublicEntry("basedev")).not.toBeNull();
  });
});

describe("exports", () => {
  it("downloads the leaderboard as CSV with one line per row and the JSON API's numbers", async () => {
    const response = await getLeaderboardExport(request("/api/leaderboard/export?track=open&format=csv"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${RELEASE_NAME}-1.0-test-open-leaderboard.csv"`);
    const [header = [], ...rows] = parseCsv(await response.text());
    expect(rows).toHaveLength(3);
    const alpha = rows.find((cells) => cells[header.indexOf("system")] === "Open Alpha") ?? [];
    expect(Number(alpha[header.indexOf("alias")])).toBe(expected("open").value("entryalpha"));
    expect(Number(alpha[header.indexOf("n")])).toBe(42);
  });

  it("downloads an entry's per-type table as LaTeX and its per-collection table as JSON", async () => {
    const tex = await getEntryExport(request("/api/entries/entryalpha/export?table=by-type&format=tex"), params("entryalpha"));
    const text = await tex.text();
    expect(text).toContain("\\begin{tabular}{lrrrrr}");
    expect(text.split("\n").filter((line) => line.endsWith("\\\\"))).toHaveLength(8);
    const json = await callJson(await getEntryExport(request("/api/entries/entryalpha/export?table=by-collection&format=json"), params("entryalpha")));
    expect((json.body as { rows: { n: number }[] }).rows.reduce((sum, row) => sum + row.n, 0)).toBe(42);
    expect((await getEntryExport(request("/api/entries/entryprivate/export?table=by-type"), params("entryprivate"))).status).toBe(404);
    expect((await getEntryExport(request("/api/entries/entryalpha/export?table=samples"), params("entryalpha"))).status).toBe(422);
  });
});

describe("comparePublicEntries", () => {
  it("reads a pair across tracks in the unified view, as the leaderboard does, and returns no counts", async () => {
    const result = await comparePublicEntries("entryalpha", "entrygamma");
    // On the ranking slice: exact b = 20, c = 5 (p = 0.0041); shown, the unified view's reading of b', c' (Holm in the family of the one behind).
    const unified = expected("unified");
    expect(result.metric).toBe("unified");
    expect(result.n).toBe(42);
    expect(result.a.overall?.value).toBe(unified.value("entryalpha"));
    expect(result.b.overall?.value).toBe(unified.value("entrygamma"));
    const reading = unified.reading("entryalpha", "entrygamma");
    expect(result.reading).toMatchObject({ verdict: reading.verdict, pBucket: reading.p_bucket, difference: reading.difference });
    expect(result.reading?.view).toMatch(/^Unified \(both tracks\), all types/);
    expect(result.devTest).toBeNull();
    expect(result.byType).toHaveLength(7);
    expect(JSON.stringify(result)).not.toMatch(/codes|outcomes|"chi2"|"pExact"|"pHolm"|"b":\d|"c":\d/);
  });

  it("refuses entries that are not public, or of another split", async () => {
    await expect(comparePublicEntries("entryalpha", "entryprivate")).rejects.toSatisfy((error: unknown) => isAppError(error) && error.code === "not_found");
    await expect(comparePublicEntries("entryalpha", "basedev")).rejects.toSatisfy((error: unknown) => isAppError(error) && error.code === "validation");
    await expect(comparePublicEntries("entryalpha", "entryalpha")).rejects.toSatisfy((error: unknown) => isAppError(error) && error.code === "validation");
  });
});

describe("safety of participant-supplied fields", () => {
  it("never stores a non-http(s) URL in a fact sheet, and pages link only http(s) URLs", async () => {
    const entry = await findPublicEntry("entryalpha");
    expect(entry?.codeUrl).toBe("https://example.org/code");
    const { factSheetSchema } = await import("@/lib/core/fact-sheet/schema");
    expect(factSheetSchema.safeParse({ ...entry?.factSheet, paperUrl: "javascript:alert(1)" }).error?.issues[0]?.message).toBe("must be an http(s) URL");
    const { safeExternalUrl } = await import("@/lib/core/leaderboard/public-entry");
    expect(safeExternalUrl("javascript:alert(1)")).toBeNull();
    expect(safeExternalUrl("https://example.org/code")).toBe("https://example.org/code");
    expect(ownerId).toBeTruthy();
  });
});
