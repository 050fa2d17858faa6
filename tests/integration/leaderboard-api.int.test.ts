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
 * Everything public is on the ranking slice (protocol section 12): with the
 * tests' fixed IRC_SLICE_SECRET, 41 of the 56 test samples, at the positions
 * 0-3, 6-8, 10-15, 20, 21, 23, 24, 26, 28-32, 34, 36-38, 40-49, 51-53, 55
 * (checked against loadSplitGold below). Worked out by hand on those 41:
 *   Open Alpha      alias-right on 29 (0.707), exact on 20 (0.488)
 *   Open Baseline   right on the 22 even ones (0.537)
 *   Closed Gamma    hit@1 on the 13 multiples of 3 (0.317), hit@3 on all 41
 *   Closed Baseline hit@1 on the 7 below 10 (0.171)
 * Pairs (b = first right and second wrong, c the reverse) and McNemar's exact
 * p = min(1, 2 P(X <= min(b, c))), X ~ Bin(b + c, 1/2), from exact fractions:
 *   Alpha vs Open Baseline   b = 19, c = 12  p = 0.281042
 *   Alpha vs Gamma           b = 21, c = 5   p = 0.0024939
 *   Alpha vs Closed Baseline b = 24, c = 2   p = 1.0490e-5
 *   Gamma vs Open Baseline   b = 5,  c = 14  p = 0.063568
 *   Closed Baseline vs Open  b = 3,  c = 18  p = 0.0014896
 *   Closed Baseline vs Gamma b = 4,  c = 10  p = 0.179565
 * Section 13 Holm families in the unified view (each entry's tests with the
 * other three): Gamma's {Alpha 0.0074818, Open 0.12714, Closed 0.17957},
 * Closed Baseline's {Alpha 3.1471e-5, Open 0.0029793, Gamma 0.17957},
 * Open Baseline's {Closed 0.0044689, Gamma 0.12714, Alpha 0.28104}.
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
    { id: "entryalpha", userId: owner.id, split: "test", publication: "PUBLISHED", systemName: "Open Alpha", track: "open", parameterCount: 8_000_000_000n, isOpenWeights: true, predictions: openPredictions(test, (i) => (i % 4 === 0 ? "miss" : i % 4 === 1 ? "alias" : "exact")) },
    { id: "baseopen", userId: system.id, split: "test", publication: "PRIVATE", isBaseline: true, systemName: "Open Baseline", track: "open", predictions: openPredictions(test, (i) => (i % 2 === 0 ? "exact" : "miss")) },
    { id: "entrygamma", userId: owner.id, split: "test", publication: "PUBLISHED", systemName: "Closed Gamma", track: "closed", predictions: closedPredictions(test, release.kb, (i) => i % 3 === 0) },
    { id: "baseclosed", userId: system.id, split: "test", publication: "PRIVATE", isBaseline: true, systemName: "Closed Baseline", track: "closed", predictions: closedPredictions(test, release.kb, (i) => i < 10) },
    { id: "entryprivate", userId: owner.id, split: "test", publication: "PRIVATE", systemName: "Private Secret", track: "open", predictions: openPredictions(test, allExact) },
    { id: "entrypending", userId: owner.id, split: "test", publication: "PENDING", systemName: "Pending Entry", track: "open", predictions: openPredictions(test, allExact) },
    { id: "entryhidden", userId: owner.id, split: "test", publication: "HIDDEN", systemName: "Hidden Entry", track: "open", predictions: openPredictions(test, allExact) },
    { id: "entrydev", userId: owner.id, split: "dev", publication: "PUBLISHED", systemName: "Dev Published", track: "open", predictions: openPredictions(dev, allExact) },
    { id: "basedev", userId: system.id, split: "dev", publication: "PRIVATE", isBaseline: true, systemName: "Dev Baseline", track: "open", predictions: openPredictions(dev, (i) => (i % 2 === 0 ? "exact" : "miss")) },
  ]);
  await db.reportedResult.create({
    data: { releaseId: release.releaseId, name: "Paper system", track: "open", split: "test", metrics: { exact: 0.5, alias: 0.6, contain: 0.61, jaccard: 0.7 }, source: "A paper, Table 4" },
  });
});

afterAll(async () => {
  await resetDatabase();
});

describe("the fixture's ranking slice", () => {
  it("has the 41 positions the expectations of this file are worked out on", async () => {
    const slices = (await loadSplitGold(release.releaseId, "test")).slices;
    const ranking = Array.from(slices?.ranking ?? []);
    expect(ranking).toEqual([0, 1, 2, 3, 6, 7, 8, 10, 11, 12, 13, 14, 15, 20, 21, 23, 24, 26, 28, 29, 30, 31, 32, 34, 36, 37, 38, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53, 55]);
    const count = (isRight: (i: number) => boolean) => ranking.filter(isRight).length;
    expect([count((i) => i % 4 !== 0), count((i) => i % 4 >= 2), count((i) => i % 2 === 0), count((i) => i % 3 === 0), count((i) => i < 10)]).toEqual([29, 20, 22, 13, 7]);
    // Alpha vs Open Baseline: b = Alpha right and the baseline wrong (the odd ones), c = the multiples of 4.
    expect([count((i) => i % 2 === 1), count((i) => i % 4 === 0)]).toEqual([19, 12]);
    // Alpha vs Gamma on the unified metric: b = i % 4 != 0 and i % 3 != 0, c = the multiples of 12.
    expect([count((i) => i % 4 !== 0 && i % 3 !== 0), count((i) => i % 12 === 0)]).toEqual([21, 5]);
    expect(count((i) => release.gold.test[i]?.type === "Person")).toBe(7);
  });
});

describe("GET /api/leaderboard", () => {
  it("lists published test entries, test baselines and reported rows of the open-world track", async () => {
    const { status, body } = await leaderboard("?track=open");
    expect(status).toBe(200);
    expect(body.release).toEqual({ name: RELEASE_NAME, version: "1.0" });
    expect(body.track).toBe("open");
    expect(body.rank_metric).toBe("alias");
    expect(body.entries.map((row) => row.system)).toEqual(["Open Alpha", "Paper system", "Open Baseline"]);
    expect(body.entries.map((row) => row.kind)).toEqual(["submission", "reported", "baseline"]);
    // Section 12: a paper's numbers stand beside ranking-slice numbers, so each row says which samples it is on.
    expect(body.entries.map((row) => row.split_part)).toEqual(["ranking slice", "whole test split", "ranking slice"]);
    expect(body.best_baseline?.name).toBe("Open Baseline");
  });

  it("gives the entry's metrics with intervals, per type, and its mark against the best baseline", async () => {
    const { body } = await leaderboard("?track=open");
    const alpha = body.entries.find((row) => row.system === "Open Alpha");
    // On the ranking slice: 29 of 41 right on alias, 20 exact, shown to 0.1 point (section 12).
    expect(alpha?.metrics.alias?.value).toBe(0.707);
    expect(alpha?.metrics.exact?.value).toBe(0.488);
    const [low, high] = alpha?.metrics.alias?.ci95 ?? [0, 0];
    expect(low).toBeLessThanOrEqual(0.707);
    expect(high).toBeGreaterThanOrEqual(0.707);
    expect(alpha?.n).toBe(41);
    expect(Object.keys(alpha?.by_type ?? {})).toHaveLength(7);
    expect(Object.values(alpha?.by_type ?? {}).reduce((sum, group) => sum + group.n, 0)).toBe(41);
    // vs Open Baseline (22 of 41, 0.537): b = 19, c = 12, exact p = 0.281 in the baseline's family {Alpha}: a verdict, a bucket
    // and the difference of the shown values, never b, c or p (section 12).
    expect(alpha?.significance).toEqual({ baseline_id: "baseopen", baseline: "Open Baseline", metric: "alias", verdict: "no significant difference", p_bucket: ">= 0.05", difference: 0.17 });
    // Nobody beats Alpha, and it beats nobody of the two: rank interval 1-2.
    expect([alpha?.rank, alpha?.rank_lo, alpha?.rank_hi]).toEqual([1, 1, 2]);
    expect(alpha?.url).toBe("/entries/entryalpha");
    const paper = body.entries.find((row) => row.kind === "reported");
    expect(paper).toMatchObject({ rank: null, id: null, significance: null, metrics: { alias: { value: 0.6, ci95: null } } });
  });

  it("serves the closed-world and unified views", async () => {
    const closed = await leaderboard("?track=closed");
    expect(closed.body.entries.map((row) => row.system)).toEqual(["Closed Gamma", "Closed Baseline"]);
    // 13 of the 41 ranking samples are multiples of 3: 0.31707..., shown to 0.1 point (protocol section 12).
    expect(closed.body.entries[0]?.metrics["hit@1"]?.value).toBe(0.317);
    expect(closed.body.entries[0]?.metrics["hit@3"]?.value).toBe(1);
    // Gamma vs Closed Baseline: b = 10, c = 4, exact p = 0.180: not separated.
    expect(closed.body.entries[0]?.significance).toMatchObject({ baseline: "Closed Baseline", verdict: "no significant difference", p_bucket: ">= 0.05", difference: 0.146 });
    expect(closed.body.entries.map((row) => [row.rank_lo, row.rank_hi])).toEqual([
      [1, 2],
      [1, 2],
    ]);

    const unified = await leaderboard("?track=unified");
    expect(unified.body.entries.map((row) => row.system).sort()).toEqual(["Closed Baseline", "Closed Gamma", "Open Alpha", "Open Baseline", "Paper system"]);
    const gamma = unified.body.entries.find((row) => row.system === "Closed Gamma");
    expect(gamma?.metrics.unified?.value).toBe(0.317);
    expect(unified.body.best_baseline?.name).toBe("Open Baseline");
    // Rank intervals from the unified view's Holm families (see the top of this file):
    // Alpha beats Gamma (0.0075) and Closed Baseline (3.1e-5); Open Baseline beats Closed Baseline (0.0030); nothing else is separated.
    const intervals = Object.fromEntries(unified.body.entries.filter((row) => row.kind !== "reported").map((row) => [row.system, [row.rank_lo, row.rank_hi]]));
    expect(intervals).toEqual({ "Open Alpha": [1, 2], "Open Baseline": [1, 3], "Closed Gamma": [2, 4], "Closed Baseline": [3, 4] });
    // Gamma vs the best baseline: b = 5, c = 14, 0.127 after Holm in Gamma's family.
    expect(gamma?.significance).toEqual({ baseline_id: "baseopen", baseline: "Open Baseline", metric: "unified", verdict: "no significant difference", p_bucket: ">= 0.05", difference: -0.22 });
    const closedBaseline = unified.body.entries.find((row) => row.system === "Closed Baseline");
    expect(closedBaseline?.significance).toMatchObject({ verdict: "worse", p_bucket: "< 0.01", difference: -0.366 });
    expect(unified.text).not.toMatch(/"b"|"c"|"chi2"|"p_holm"|"p_exact"|"p"/);
  });

  it("ranks one entity type on its own samples", async () => {
    const { status, body } = await leaderboard("?track=open&type=person");
    expect(status).toBe(200);
    expect(body.type).toBe("Person");
    const alpha = body.entries.find((row) => row.system === "Open Alpha");
    // 7 of the 41 ranking samples are people.
    expect(alpha?.n).toBe(7);
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
    const first = await leaderboard("?track=unified&limit=2");
    expect(first.body).toMatchObject({ total: 5, offset: 0, limit: 2, next: "/api/leaderboard?track=unified&offset=2&limit=2" });
    expect(first.body.entries.map((row) => row.system)).toEqual(["Open Alpha", "Paper system"]);
    const last = await leaderboard("?track=unified&limit=2&offset=4");
    expect(last.body).toMatchObject({ total: 5, offset: 4, next: null });
    expect(last.body.entries).toHaveLength(1);
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
    // The ranking slice (section 12): 29 of 41.
    expect(body.score.n).toBe(41);
    expect(body.score.metrics.alias).toBe(0.707);
    expect(body.score.ci95.alias).toHaveLength(2);
    expect(Object.values(body.score.by_type).reduce((sum, group) => sum + group.n, 0)).toBe(41);
    expect(Object.values(body.score.by_collection).reduce((sum, group) => sum + group.n, 0)).toBe(41);
    // One reading per baseline of its track's view (section 13), the leaderboard's mark: b = 19, c = 12, exact p = 0.281.
    expect(body.comparisons).toEqual([
      { baseline_id: "baseopen", baseline: "Open Baseline", view: "Open-world, all types", metric: "alias", verdict: "no significant difference", p_bucket: ">= 0.05", difference: 0.17 },
    ]);
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
    expect(Number(alpha[header.indexOf("alias")])).toBe(0.707);
    expect(Number(alpha[header.indexOf("n")])).toBe(41);
  });

  it("downloads an entry's per-type table as LaTeX and its per-collection table as JSON", async () => {
    const tex = await getEntryExport(request("/api/entries/entryalpha/export?table=by-type&format=tex"), params("entryalpha"));
    const text = await tex.text();
    expect(text).toContain("\\begin{tabular}{lrrrrr}");
    expect(text.split("\n").filter((line) => line.endsWith("\\\\"))).toHaveLength(8);
    const json = await callJson(await getEntryExport(request("/api/entries/entryalpha/export?table=by-collection&format=json"), params("entryalpha")));
    expect((json.body as { rows: { n: number }[] }).rows.reduce((sum, row) => sum + row.n, 0)).toBe(41);
    expect((await getEntryExport(request("/api/entries/entryprivate/export?table=by-type"), params("entryprivate"))).status).toBe(404);
    expect((await getEntryExport(request("/api/entries/entryalpha/export?table=samples"), params("entryalpha"))).status).toBe(422);
  });
});

describe("comparePublicEntries", () => {
  it("reads a pair across tracks in the unified view, as the leaderboard does, and returns no counts", async () => {
    const result = await comparePublicEntries("entryalpha", "entrygamma");
    // On the ranking slice: b = 21, c = 5, exact p = 0.0024939, 0.0074818 after Holm in Gamma's family of the unified view.
    expect(result.metric).toBe("unified");
    expect(result.n).toBe(41);
    expect(result.a.overall?.value).toBe(0.707);
    expect(result.b.overall?.value).toBe(0.317);
    expect(result.reading).toMatchObject({ verdict: "better", pBucket: "< 0.01", difference: 0.39 });
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
