import { describe, expect, it } from "vitest";
import { rankByIntervals } from "./rank-entries";

describe("rankByIntervals", () => {
  it("counts the entries whose interval lies entirely above", () => {
    const ranks = rankByIntervals([
      { id: "a", interval: [0.5, 0.6] },
      { id: "b", interval: [0.45, 0.55] },
      { id: "c", interval: [0.3, 0.4] },
      { id: "d", interval: [0.1, 0.2] },
    ]);
    // a: no lower bound above 0.6; b: none above 0.55 (a's 0.5 is not);
    // c: a (0.5) and b (0.45) are above 0.4; d: a, b and c (0.3) are above 0.2.
    expect(Object.fromEntries(ranks)).toEqual({ a: 1, b: 1, c: 3, d: 4 });
  });

  it("treats touching intervals as a tie", () => {
    const ranks = rankByIntervals([
      { id: "low", interval: [0.4, 0.5] },
      { id: "high", interval: [0.5, 0.6] },
    ]);
    expect(ranks.get("low")).toBe(1);
    expect(ranks.get("high")).toBe(1);
  });

  it("separates intervals that only just do not touch", () => {
    const ranks = rankByIntervals([
      { id: "low", interval: [0.4, 0.5] },
      { id: "high", interval: [0.5000001, 0.6] },
    ]);
    expect(ranks.get("low")).toBe(2);
    expect(ranks.get("high")).toBe(1);
  });

  it("gives identical intervals the same rank", () => {
    const ranks = rankByIntervals([
      { id: "x", interval: [0.2, 0.3] },
      { id: "y", interval: [0.2, 0.3] },
      { id: "z", interval: [0.05, 0.1] },
    ]);
    expect(Object.fromEntries(ranks)).toEqual({ x: 1, y: 1, z: 3 });
  });

  it("leaves rows without an interval unranked and ignores them for the others", () => {
    const ranks = rankByIntervals([
      { id: "reported", interval: null },
      { id: "broken", interval: [Number.NaN, 0.5] },
      { id: "entry", interval: [0.1, 0.2] },
    ]);
    expect(ranks.get("reported")).toBeNull();
    expect(ranks.get("broken")).toBeNull();
    expect(ranks.get("entry")).toBe(1);
  });

  it("ranks a chain of overlapping intervals without transitivity", () => {
    // a overlaps b, b overlaps c, but a lies entirely above c.
    const ranks = rankByIntervals([
      { id: "a", interval: [0.5, 0.7] },
      { id: "b", interval: [0.4, 0.55] },
      { id: "c", interval: [0.3, 0.45] },
    ]);
    expect(Object.fromEntries(ranks)).toEqual({ a: 1, b: 1, c: 2 });
  });

  it("handles no items", () => {
    expect(rankByIntervals([]).size).toBe(0);
  });
});
