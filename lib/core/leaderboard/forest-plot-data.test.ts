import { describe, expect, it } from "vitest";
import { FOREST_PLOT_LIMIT, forestPlotData, shortSystemName } from "./forest-plot-data";
import type { LeaderboardRow } from "./leaderboard-types";

function row(key: string, kind: LeaderboardRow["kind"], value: number | null, ci95: [number, number] | null): LeaderboardRow {
  return {
    key,
    kind,
    entryId: kind === "reported" ? null : key,
    system: `System ${key}`,
    team: null,
    track: "open",
    n: 200,
    parameterCount: null,
    isOpenWeights: null,
    approach: null,
    usesSourceData: null,
    knowledgeCutoff: null,
    tier: kind === "reported" ? "reported" : "scored",
    date: null,
    isStale: false,
    source: null,
    rank: kind === "reported" ? null : 1,
    rankHi: kind === "reported" ? null : 1,
    rankReason: null,
    metrics: { alias: value === null ? null : { value, ci95 } },
    byType: null,
    significance: null,
  };
}

describe("forest plot data", () => {
  it("draws each entry in percent, best first, with its interval as distances", () => {
    const data = forestPlotData({
      track: "open",
      type: null,
      rankMetric: "alias",
      rows: [row("a", "submission", 0.42, [0.37, 0.46]), row("b", "baseline", 0.3, [0.25, 0.351]), row("c", "submission", null, null)],
    });
    expect(data.total).toBe(2);
    expect(data.points.map((point) => [point.key, point.position, point.kind, point.value])).toEqual([
      ["a", 0, "submission", 42],
      ["b", 1, "baseline", 30],
    ]);
    expect(data.points[0]?.error?.[0]).toBeCloseTo(5, 9);
    expect(data.points[0]?.error?.[1]).toBeCloseTo(4, 9);
    expect(data.points[0]?.label).toBe("42.0 [37.0, 46.0]");
    // 25 .. 46 in at most 5 gaps: a step of 5, ending on the tick 50 (no short last gap).
    expect(data.domain).toEqual([25, 50]);
    expect(data.ticks).toEqual([25, 30, 35, 40, 45, 50]);
    expect(data.axisLabel).toBe("Alias (%)");
    expect(data.title).toBe("Alias with 95% intervals, Open-world view, best first");
  });

  it("writes the distances to the interval's ends with the digits of the shown numbers, no floating-point tails (section 12)", () => {
    // 38.9 - 25 in doubles is 13.899999999999999: the page would carry it.
    const data = forestPlotData({ track: "open", type: null, rankMetric: "alias", rows: [row("a", "submission", 0.389, [0.25, 0.399])] });
    expect(data.points[0]?.value).toBe(38.9);
    expect(data.points[0]?.error).toEqual([13.9, 1]);
  });

  it("draws reported results as points without intervals", () => {
    const data = forestPlotData({ track: "open", type: "Place", rankMetric: "alias", rows: [row("r", "reported", 0.25, null)] });
    expect(data.points[0]?.error).toBeNull();
    expect(data.points[0]?.label).toBe("25.0");
    expect(data.title).toContain("on Place samples");
  });

  it("shows the top entries only and says how many there are", () => {
    const rows = Array.from({ length: FOREST_PLOT_LIMIT + 5 }, (_, index) => row(String(index), "submission", 0.5, [0.4, 0.6]));
    const data = forestPlotData({ track: "closed", type: null, rankMetric: "hit@1", rows: rows.map((r) => ({ ...r, metrics: { "hit@1": r.metrics.alias ?? null } })) });
    expect(data.points).toHaveLength(FOREST_PLOT_LIMIT);
    expect(data.total).toBe(FOREST_PLOT_LIMIT + 5);
  });

  it("cuts long names for the axis only", () => {
    expect(shortSystemName("Kestrel-1")).toBe("Kestrel-1");
    expect(shortSystemName("A very long system name indeed, with more")).toBe("A very long system name indee…");
  });
});
