import { describe, expect, it } from "vitest";
import { formatPStatement } from "@/lib/format/numbers";
import { matrixGrid } from "./matrix-grid";

describe("matrix grid", () => {
  it("writes p as the matrix shows it", () => {
    expect(formatPStatement(0.0004)).toBe("p < 0.001");
    expect(formatPStatement(0.0312)).toBe("p = 0.031");
    expect(formatPStatement(0.0499)).toBe("p < 0.05");
    expect(formatPStatement(1)).toBe("p = 1.000");
  });

  it("labels every cell with its direction, difference in points and p", () => {
    const grid = matrixGrid({
      rankMetric: "alias",
      matrix: {
        entries: [
          { id: "a", system: "Ada", kind: "submission", rank: 1, value: 0.5 },
          { id: "b", system: "Bo", kind: "baseline", rank: 2, value: 0.458 },
        ],
        cells: [
          [null, { b: 30, c: 10, difference: 0.042, pHolm: 0.003, winner: "row" }],
          [{ b: 10, c: 30, difference: -0.042, pHolm: 0.003, winner: "column" }, null],
        ],
      },
    });
    expect(grid?.entries.map((entry) => [entry.system, entry.isBaseline, entry.value])).toEqual([
      ["Ada", false, "50.0"],
      ["Bo", true, "45.8"],
    ]);
    expect(grid?.cells[0]?.[1]?.label).toBe("Ada vs Bo: Ada significantly better, +4.2 points, p = 0.003");
    expect(grid?.cells[1]?.[0]?.label).toBe("Bo vs Ada: Ada significantly better, −4.2 points, p = 0.003");
    expect(grid?.cells[0]?.[0]).toBeNull();
  });

  it("says no significant difference, and has no grid without ranks", () => {
    const grid = matrixGrid({
      rankMetric: "hit@1",
      matrix: {
        entries: [
          { id: "a", system: "Ada", kind: "submission", rank: 1, value: 0.5 },
          { id: "b", system: "Bo", kind: "submission", rank: 1, value: 0.49 },
        ],
        cells: [
          [null, { b: 5, c: 3, difference: 0.01, pHolm: 0.72, winner: "none" }],
          [{ b: 3, c: 5, difference: -0.01, pHolm: 0.72, winner: "none" }, null],
        ],
      },
    });
    expect(grid?.cells[0]?.[1]?.label).toBe("Ada vs Bo: no significant difference, +1.0 points, p = 0.720");
    expect(matrixGrid({ rankMetric: "alias", matrix: null })).toBeNull();
  });
});
