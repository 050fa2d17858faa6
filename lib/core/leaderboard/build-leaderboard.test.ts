import { describe, expect, it } from "vitest";
import { buildLeaderboard, type BuildLeaderboardInput } from "./build-leaderboard";
import { buildProgressView } from "@/lib/core/leaderboard/progress-view";
import { ZERO_NOISE, entry, GOLD, GOLD_TYPES, RELEASE, reported, VERSION } from "@/testing/leaderboard/test-support";

const openA = entry({ id: "open-a", track: "open", metrics: { exact: 0.4, alias: 0.5, contain: 0.55, jaccard: 0.6 }, ci95: { exact: [0.35, 0.45], alias: [0.45, 0.55], contain: [0.5, 0.6], jaccard: [0.55, 0.65] } });
const openB = entry({ id: "open-b", track: "open", metrics: { exact: 0.3, alias: 0.35, contain: 0.4, jaccard: 0.45 }, ci95: { exact: [0.25, 0.35], alias: [0.3, 0.4], contain: [0.35, 0.45], jaccard: [0.4, 0.5] }, scorerVersion: "0.9.0" });
const openBase = entry({ id: "open-base", track: "open", isBaseline: true, metrics: { exact: 0.2, alias: 0.25, contain: 0.3, jaccard: 0.32 }, ci95: { exact: [0.15, 0.25], alias: [0.2, 0.3], contain: [0.25, 0.35], jaccard: [0.27, 0.37] } });
const openWeak = entry({ id: "open-weak", track: "open", isBaseline: true, metrics: { exact: 0.05, alias: 0.06, contain: 0.1, jaccard: 0.12 }, ci95: { exact: [0.02, 0.08], alias: [0.03, 0.09], contain: [0.06, 0.14], jaccard: [0.08, 0.16] } });
const closedA = entry({ id: "closed-a", track: "closed", metrics: { "hit@1": 0.3, "hit@3": 0.45, "hit@5": 0.5, "hit@10": 0.6, mrr: 0.4, "alias_hit@1": 0.42 }, ci95: { "hit@1": [0.25, 0.35], "alias_hit@1": [0.37, 0.47] }, goldSha256: "old-gold" });

function progressInput(overrides: Partial<BuildLeaderboardInput>) {
  const base = input(overrides);
  return { ...base, readPair: buildLeaderboard(base).readPair };
}

function input(overrides: Partial<BuildLeaderboardInput>): BuildLeaderboardInput {
  return {
    release: RELEASE,
    goldSha256: GOLD,
    scorerVersion: VERSION,
    track: "open",
    type: null,
    entries: [openB, openWeak, closedA, openA, openBase],
    goldTypes: GOLD_TYPES,
    minGroupN: 30,
    noise: ZERO_NOISE,
    reported: [reported({ id: "o10", track: "open", metrics: { exact: 0.3894, alias: 0.4142, contain: 0.479, jaccard: 0.5159 } })],
    ...overrides,
  };
}

describe("buildLeaderboard, open-world view", () => {
  const view = buildLeaderboard(input({}));
  const byKey = new Map(view.rows.map((row) => [row.key, row]));

  it("shows the open-world entries and reported rows, ordered by alias", () => {
    expect(view.rows.map((row) => row.key)).toEqual(["open-a", "reported:o10", "open-b", "open-base", "open-weak"]);
    expect(view.rankMetric).toBe("alias");
    expect(view.columns).toEqual(["exact", "alias", "contain", "jaccard"]);
  });

  it("ranks by paired tests on alias (section 13)", () => {
    // Right on the first 100, 70, 50 and 12 of 200 samples (nested): every pair differs one way only.
    // The weakest pair, b vs base, has b = 20, c = 0: McNemar's exact p = 2 * 2^-20, below 0.05 after
    // Holm in any family of three. So every entry is significantly better than every entry below it.
    expect(byKey.get("open-a")?.rank).toBe(1);
    expect(byKey.get("open-b")?.rank).toBe(2);
    expect(byKey.get("open-base")?.rank).toBe(3);
    expect(byKey.get("open-weak")?.rank).toBe(4);
    expect(byKey.get("reported:o10")?.rank).toBeNull();
    // Rank intervals agree at both ends: [1, 1], [2, 2], [3, 3], [4, 4].
    expect(view.rows.map((row) => row.rankHi)).toEqual([1, null, 2, 3, 4]);
    expect(byKey.get("open-a")?.rankReason).toEqual({ better: [], beats: 3, ranked: 4 });
    expect(byKey.get("open-base")?.rankReason?.better.map((better) => better.system)).toEqual(["open-a", "open-b"]);
    expect(byKey.get("open-base")?.rankReason?.better[1]?.pBucket).toBe("< 0.001");
  });

  it("marks each entry against the best baseline with the same test the ranks count", () => {
    expect(view.bestBaseline).toEqual({ id: "open-base", name: "open-base", metric: "alias", value: 0.25 });
    // A verdict, a p bucket and the difference of the shown values: never b, c or an exact p (section 12).
    expect(byKey.get("open-a")?.significance).toEqual({ baselineId: "open-base", baselineName: "open-base", metric: "alias", verdict: "better", pBucket: "< 0.001", difference: 0.25 });
    expect(byKey.get("open-b")?.significance).toMatchObject({ verdict: "better", pBucket: "< 0.001", difference: 0.1 });
    expect(byKey.get("open-weak")?.significance).toMatchObject({ verdict: "worse", pBucket: "< 0.001", difference: -0.19 });
    expect(byKey.get("open-b")?.significance).not.toHaveProperty("b");
    expect(byKey.get("open-base")?.significance).toBeNull();
    expect(byKey.get("reported:o10")?.significance).toBeNull();
    // The mark and the rank agree: a significantly better entry counts in the baseline's rank.
    for (const row of view.rows) {
      if (row.significance?.verdict === "better") {
        expect(byKey.get("open-base")?.rankReason?.better.some((better) => better.entryId === row.key)).toBe(true);
      }
    }
  });

  it("builds the pairwise matrix of the ranked entries from the same tests", () => {
    expect(view.matrix?.entries.map((entry) => entry.id)).toEqual(["open-a", "open-b", "open-base", "open-weak"]);
    expect(view.matrix?.cells[0]?.[0]).toBeNull();
    // a (0.5 shown) against b (0.35): the difference of the shown values; decided in b's family.
    expect(view.matrix?.cells[0]?.[1]).toEqual({ verdict: "better", pBucket: "< 0.001", difference: 0.15, winner: "row" });
    expect(view.matrix?.cells[1]?.[0]).toEqual({ verdict: "worse", pBucket: "< 0.001", difference: -0.15, winner: "column" });
    // One verdict per pair: the matrix cell is the mark and the view's reading.
    expect(view.matrix?.cells[1]?.[2]).toMatchObject({ verdict: byKey.get("open-b")?.significance?.verdict, pBucket: byKey.get("open-b")?.significance?.pBucket });
    expect(view.readPair("open-b", "open-base")).toEqual({ verdict: "better", pBucket: "< 0.001", difference: 0.1 });
    expect(view.readPair("open-b", "reported:o10")).toBeNull();
  });

  it("marks stale scores and kinds", () => {
    expect(byKey.get("open-b")?.isStale).toBe(true);
    expect(byKey.get("open-a")?.isStale).toBe(false);
    expect(byKey.get("open-base")?.kind).toBe("baseline");
    expect(byKey.get("reported:o10")?.kind).toBe("reported");
  });

  it("gives every score its interval and reported rows none", () => {
    expect(byKey.get("open-a")?.metrics.contain).toEqual({ value: 0.55, ci95: [0.5, 0.6] });
    expect(byKey.get("reported:o10")?.metrics.alias).toEqual({ value: 0.4142, ci95: null });
  });

  it("carries the ranking metric per entity type", () => {
    expect(byKey.get("open-a")?.byType?.Place).toEqual({ n: 10, value: 0.5, ci95: [0.45, 0.55], isSuppressed: false });
    const person = byKey.get("open-a")?.byType?.Person;
    expect(person?.n).toBe(30);
    expect(person?.value).toBeCloseTo(0.48, 12);
  });
});

describe("buildLeaderboard, other views", () => {
  it("ranks closed-world entries by hit@1 and flags a score against old gold as stale", () => {
    const view = buildLeaderboard(input({ track: "closed", reported: [] }));
    expect(view.rows.map((row) => row.key)).toEqual(["closed-a"]);
    // Scored against another gold: its outcomes cannot be paired with the current gold's.
    expect(view.rows[0]?.rank).toBeNull();
    expect(view.rows[0]?.isStale).toBe(true);
    expect(view.bestBaseline).toBeNull();
    expect(view.rows[0]?.significance).toBeNull();
  });

  it("puts both tracks on the unified metric: alias for open, alias_hit@1 for closed", () => {
    const view = buildLeaderboard(input({ track: "unified" }));
    const byKey = new Map(view.rows.map((row) => [row.key, row]));
    expect(view.columns).toEqual(["unified"]);
    expect(byKey.get("open-a")?.metrics.unified).toEqual({ value: 0.5, ci95: [0.45, 0.55] });
    expect(byKey.get("closed-a")?.metrics.unified).toEqual({ value: 0.42, ci95: [0.37, 0.47] });
    expect(byKey.get("reported:o10")?.metrics.unified).toEqual({ value: 0.4142, ci95: null });
    expect(view.rows.map((row) => row.key)).toEqual(["open-a", "closed-a", "reported:o10", "open-b", "open-base", "open-weak"]);
    expect(byKey.get("closed-a")?.significance).toBeNull();
    expect(byKey.get("open-b")?.significance).toMatchObject({ metric: "unified", verdict: "better" });
  });

  it("ranks one entity type on that type's samples only", () => {
    // Samples 120..199 are events. a, b and no-events are right on none of them: all share rank 1.
    const withEmpty = entry({ id: "no-events", track: "open", metrics: { alias: 0.9 }, ci95: { alias: [0.85, 0.95] }, emptyTypes: ["Event"], right: 120 });
    const view = buildLeaderboard(
      input({
        type: "Event",
        entries: [openA, openB, withEmpty],
        reported: [
          reported({ id: "typed", track: "open", metrics: { jaccard: 0.35 }, byType: { Event: { n: 273, metrics: { jaccard: 0.3443 } } } }),
          reported({ id: "untyped", track: "open", metrics: { alias: 0.3 } }),
        ],
      }),
    );
    const byKey = new Map(view.rows.map((row) => [row.key, row]));
    // Event is type index 3: every metric shifted by -0.03, n = 40.
    expect(byKey.get("open-a")?.n).toBe(40);
    expect(byKey.get("open-a")?.metrics.alias?.value).toBeCloseTo(0.47, 12);
    expect(byKey.get("open-a")?.rank).toBe(1);
    expect(byKey.get("open-b")?.rank).toBe(1);
    expect(byKey.get("no-events")?.metrics.alias).toBeNull();
    expect(byKey.get("no-events")?.n).toBe(0);
    expect(byKey.get("reported:typed")?.metrics.jaccard).toEqual({ value: 0.3443, ci95: null });
    expect(byKey.get("reported:typed")?.n).toBe(273);
    expect(byKey.has("reported:untyped")).toBe(false);
    expect(view.bestBaseline).toBeNull();
    expect(view.rows.every((row) => row.significance === null && row.byType === null)).toBe(true);
  });

  it("gives a type too small to show (section 12) no ranks", () => {
    const view = buildLeaderboard(input({ type: "Event", minGroupN: 81 }));
    expect(view.rows.every((row) => row.rank === null)).toBe(true);
  });

  it("gives a type hidden by secondary suppression (section 12) no ranks, marks or matrix", () => {
    // 120 Place and 80 Event samples, min_group_n 81: Event is too small, and Place is hidden with it
    // (the overall numbers minus Place's would give Event's back). Place's pairwise b and c would do
    // the same: overall b minus Place's b is Event's b.
    const view = buildLeaderboard(input({ type: "Place", minGroupN: 81 }));
    expect(view.rows.every((row) => row.rank === null && row.rankReason === null && row.significance === null)).toBe(true);
    expect(view.matrix).toBeNull();
    // Shown when nothing smaller needs hiding with it.
    const shown = buildLeaderboard(input({ type: "Place", minGroupN: 80 }));
    expect(shown.matrix).not.toBeNull();
    // Nor a progress timeline, which would test pairs on the same samples.
    const progress = buildProgressView(progressInput({ type: "Place", minGroupN: 81 }));
    expect(progress.points).toEqual([]);
    expect(progress.unavailable).toBe("Place is hidden with the smaller types, whose numbers the overall ones minus its own would give back: no numbers are shown for it.");
    expect(buildProgressView(progressInput({ type: "Event", minGroupN: 81 })).unavailable).toBe(
      "Event has 80 test samples, fewer than the release's minimum group size of 81: no numbers are shown for it.",
    );
    expect(buildProgressView(progressInput({ type: "Place", minGroupN: 80 })).unavailable).toBeNull();
  });
});
