import { describe, expect, it } from "vitest";
import { formatRankInterval } from "@/lib/core/format/numbers";
import { formatPBucket, formatPStatement } from "@/lib/core/format/p-values";
import { matrixGrid } from "./matrix-grid";

describe("matrix grid", () => {
  it("writes p as the matrix shows it: a bucket (section 12), never an exact p", () => {
    expect(formatPBucket("< 0.001")).toBe("p < 0.001");
    expect(formatPBucket("< 0.01")).toBe("p < 0.01");
    expect(formatPBucket("< 0.05")).toBe("p < 0.05");
    expect(formatPBucket(">= 0.05")).toBe("p ≥ 0.05");
    expect(formatRankInterval(3, 3)).toBe("3");
    expect(formatRankInterval(2, 5)).toBe("2–5");
  });

  it("still writes an exact p in a sentence where one may be shown (a maintainer)", () => {
    expect(formatPStatement(0.0004)).toBe("p < 0.001");
    expect(formatPStatement(0.0312)).toBe("p = 0.0312");
    expect(formatPStatement(0.04996)).toBe("p < 0.05");
    expect(formatPStatement(1)).toBe("p = 1.00");
  });

  it("labels every cell with its direction, difference in points and p", () => {
    const grid = matrixGrid({
      rankMetric: "alias",
      matrix: {
        entries: [
          { id: "a", system: "Ada", kind: "submission", rank: 1, rankHi: 1, value: 0.5 },
          { id: "b", system: "Bo", kind: "baseline", rank: 2, rankHi: 2, value: 0.458 },
        ],
        cells: [
          [null, { verdict: "better", pBucket: "< 0.01", difference: 0.042, winner: "row" }],
          [{ verdict: "worse", pBucket: "< 0.01", difference: -0.042, winner: "column" }, null],
        ],
      },
    });
    expect(grid?.entries.map((entry) => [entry.system, entry.isBaseline, entry.rank, entry.value])).toEqual([
      ["Ada", false, "1", "50.0"],
      ["Bo", true, "2", "45.8"],
    ]);
    expect(grid?.cells[0]?.[1]).toEqual({
      winner: "row",
      difference: "+4.2",
      p: "p < 0.01",
      label: "Ada vs Bo: Ada is significantly better than Bo (p < 0.01), +4.2 points",
    });
    expect(grid?.cells[1]?.[0]?.label).toBe("Bo vs Ada: Bo is significantly worse than Ada (p < 0.01), −4.2 points");
    expect(grid?.cells[1]?.[0]?.winner).toBe("column");
    expect(grid?.cells[0]?.[0]).toBeNull();
    // Section 12: no cell carries b, c or an exact p.
    for (const cell of grid?.cells.flat() ?? []) if (cell !== null) expect(Object.keys(cell).sort()).toEqual(["difference", "label", "p", "winner"]);
    expect(JSON.stringify(grid)).not.toMatch(/pHolm|p = /);
  });

  it("says no significant difference, and has no grid without ranks", () => {
    const grid = matrixGrid({
      rankMetric: "hit@1",
      matrix: {
        entries: [
          { id: "a", system: "Ada", kind: "submission", rank: 1, rankHi: 2, value: 0.5 },
          { id: "b", system: "Bo", kind: "submission", rank: 1, rankHi: 2, value: 0.49 },
        ],
        cells: [
          [null, { verdict: "no significant difference", pBucket: ">= 0.05", difference: 0.01, winner: "none" }],
          [{ verdict: "no significant difference", pBucket: ">= 0.05", difference: -0.01, winner: "none" }, null],
        ],
      },
    });
    expect(grid?.entries.map((entry) => entry.rank)).toEqual(["1–2", "1–2"]);
    expect(grid?.cells[0]?.[1]?.label).toBe("Ada vs Bo: Ada is not significantly different from Bo (p ≥ 0.05), +1.0 points");
    expect(grid?.cells[1]?.[0]?.p).toBe("p ≥ 0.05");
    expect(matrixGrid({ rankMetric: "alias", matrix: null })).toBeNull();
  });
});
