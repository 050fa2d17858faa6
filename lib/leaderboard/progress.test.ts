import { describe, expect, it } from "vitest";
import { packBits } from "@/lib/scoring/bitset";
import { buildProgressTimeline, describeProgressStatus, type ProgressCandidate } from "./progress";

/**
 * Hand-made dated entries on 10 samples. Expected p-values by hand (section 9,
 * exact two-sided binomial): b = 6, c = 0 gives 2 / 2^6 = 0.03125 (< 0.05);
 * b = 5, c = 0 gives 2 / 2^5 = 0.0625; b = 1, c = 0 gives 1 (capped).
 */

function bits(pattern: string) {
  return packBits([...pattern].map((char) => (char === "1" ? 1 : 0)));
}

function entry(id: string, date: string | null, value: number, pattern: string | null, extra: Partial<ProgressCandidate> = {}): ProgressCandidate {
  return { id, system: id.toUpperCase(), kind: "submission", date, value, correct: pattern === null ? null : bits(pattern), isPublic: true, ...extra };
}

describe("buildProgressTimeline", () => {
  it("opens with the first tested entry and marks a significant improvement as the new state of the art", () => {
    const timeline = buildProgressTimeline([
      entry("b", "2026-03-01", 0.7, "1111111000"),
      entry("a", "2026-01-01", 0.1, "1000000000"),
    ]);
    expect(timeline.points.map((point) => [point.id, point.status, point.best, point.sotaId])).toEqual([
      ["a", "first", 0.1, "a"],
      ["b", "sota", 0.7, "b"],
    ]);
    expect(timeline.points[1]?.test).toEqual({ againstId: "a", againstSystem: "A", b: 6, c: 0, pExact: 0.03125 });
  });

  it("shows a higher but non-significant entry as not significantly better and keeps the state of the art", () => {
    const timeline = buildProgressTimeline([
      entry("a", "2026-01-01", 0.1, "1000000000"),
      entry("b", "2026-02-01", 0.6, "1111110000"),
      // Tested against A (still the state of the art), not against B: b = 6, c = 0.
      entry("c", "2026-03-01", 0.7, "1111111000"),
    ]);
    expect(timeline.points.map((point) => [point.id, point.status, point.best, point.sotaId])).toEqual([
      ["a", "first", 0.1, "a"],
      ["b", "not-significant", 0.6, "a"],
      ["c", "sota", 0.7, "c"],
    ]);
    expect(timeline.points[1]?.test?.pExact).toBe(0.0625);
    expect(timeline.points[2]?.test).toMatchObject({ againstId: "a", b: 6, c: 0 });
  });

  it("tests an entry below a higher non-significant one against the state of the art, and can make it the next one", () => {
    // 20 samples. B is higher (0.6) but misses all 5 of A's: b = 12, c = 5, p = 0.1435. C (0.55) keeps A's 5 and adds 6: b = 6, c = 0, p = 0.03125.
    const timeline = buildProgressTimeline([
      entry("a", "2026-01-01", 0.25, `11111${"0".repeat(15)}`),
      entry("b", "2026-02-01", 0.6, `00000${"1".repeat(12)}000`),
      entry("c", "2026-03-01", 0.55, `${"1".repeat(11)}${"0".repeat(9)}`),
    ]);
    expect(timeline.points.map((point) => [point.id, point.status, point.best, point.sotaId])).toEqual([
      ["a", "first", 0.25, "a"],
      ["b", "not-significant", 0.6, "a"],
      ["c", "sota", 0.6, "c"],
    ]);
    expect(timeline.points[1]?.test).toMatchObject({ againstId: "a", b: 12, c: 5 });
    expect(timeline.points[1]?.test?.pExact).toBeCloseTo(0.1435, 4);
    expect(timeline.points[2]?.test).toEqual({ againstId: "a", againstSystem: "A", b: 6, c: 0, pExact: 0.03125 });
  });

  it("treats a tie with the best value as not higher, without a test", () => {
    const timeline = buildProgressTimeline([
      entry("a", "2026-01-01", 0.5, "1111100000"),
      entry("b", "2026-02-01", 0.5, "0000011111"),
      entry("c", "2026-02-02", 0.4, "1111000000"),
    ]);
    expect(timeline.points.map((point) => [point.id, point.status, point.test])).toEqual([
      ["a", "first", null],
      ["b", "not-higher", null],
      ["c", "not-higher", null],
    ]);
  });

  it("takes entries of the same day best first, so a day gives at most one new state of the art", () => {
    const timeline = buildProgressTimeline([
      entry("a", "2026-01-01", 0.1, "1000000000"),
      entry("low", "2026-02-01", 0.2, "1100000000"),
      entry("high", "2026-02-01", 0.7, "1111111000"),
    ]);
    expect(timeline.points.map((point) => [point.id, point.status, point.best])).toEqual([
      ["a", "first", 0.1],
      ["high", "sota", 0.7],
      ["low", "not-higher", 0.7],
    ]);
  });

  it("leaves out hidden, withdrawn and undated entries", () => {
    const timeline = buildProgressTimeline([
      entry("a", "2026-01-01", 0.1, "1000000000"),
      entry("hidden", "2026-02-01", 0.9, "1111111110", { isPublic: false }),
      entry("undated", null, 0.8, "1111111100"),
      entry("b", "2026-03-01", 0.2, "1100000000"),
    ]);
    expect(timeline.points.map((point) => [point.id, point.status])).toEqual([
      ["a", "first"],
      ["b", "not-significant"],
    ]);
    expect(timeline.points[1]?.test).toMatchObject({ b: 1, c: 0, pExact: 1 });
  });

  it("includes baselines, marked as such, as any other tested entry", () => {
    const timeline = buildProgressTimeline([
      entry("bm25", "2026-01-01", 0.1, "1000000000", { kind: "baseline" }),
      entry("a", "2026-02-01", 0.7, "1111111000"),
    ]);
    expect(timeline.points.map((point) => [point.id, point.kind, point.status])).toEqual([
      ["bm25", "baseline", "first"],
      ["a", "submission", "sota"],
    ]);
  });

  it("draws reported rows at their paper's date but never makes them a state of the art or part of the line", () => {
    const timeline = buildProgressTimeline([
      entry("paper", "2025-12-01", 0.95, null, { kind: "reported" }),
      entry("a", "2026-01-01", 0.1, "1000000000"),
      entry("undated-paper", null, 0.5, null, { kind: "reported" }),
      entry("b", "2026-03-01", 0.7, "1111111000"),
    ]);
    expect(timeline.points.map((point) => [point.id, point.status, point.best, point.sotaId])).toEqual([
      ["paper", "reported", null, null],
      ["a", "first", 0.1, "a"],
      ["b", "sota", 0.7, "b"],
    ]);
    expect(timeline.undatedReported).toEqual([{ id: "undated-paper", system: "UNDATED-PAPER", value: 0.5 }]);
  });

  it("draws a stale score as untested: it neither opens the timeline nor moves the line", () => {
    const timeline = buildProgressTimeline([
      entry("stale", "2026-01-01", 0.9, null),
      entry("a", "2026-02-01", 0.1, "1000000000"),
    ]);
    expect(timeline.points.map((point) => [point.id, point.status, point.best])).toEqual([
      ["stale", "untested", null],
      ["a", "first", 0.1],
    ]);
    expect(describeProgressStatus(timeline.points[0]!)).toBe("scored against other gold: not tested");
  });
});
