import { describe, expect, it } from "vitest";
import type { PairReading } from "@/lib/core/disclosure/disclose";
import { buildProgressTimeline, describeProgressStatus, type PairReader, type ProgressCandidate } from "./progress";

/**
 * Hand-made dated entries. A step's test is the view's section 13 reading of
 * the pair (McNemar's exact test, Holm-adjusted among the view's entries), so
 * each case gives the timeline a reader with the readings the view would
 * print, and checks which pairs the timeline asks about and what it does with
 * the answers. The readings themselves are tested in lib/core/ranking/paired-ranks.test.ts
 * and lib/core/leaderboard/build-leaderboard.test.ts.
 */

function entry(id: string, date: string | null, value: number, isTested = true, extra: Partial<ProgressCandidate> = {}): ProgressCandidate {
  return { id, system: id.toUpperCase(), kind: "submission", date, value, order: value, isTested, isPublic: true, ...extra };
}

const better = (difference: number, pBucket: PairReading["pBucket"] = "< 0.05"): PairReading => ({ verdict: "better", pBucket, difference });
const notDifferent = (difference: number): PairReading => ({ verdict: "no significant difference", pBucket: ">= 0.05", difference });

/** A reader from "entry vs other" to the view's reading; it records every pair asked. */
function viewReader(readings: Record<string, PairReading>): { read: PairReader; asked: string[] } {
  const asked: string[] = [];
  const read: PairReader = (entryId, otherId) => {
    asked.push(`${entryId} vs ${otherId}`);
    return readings[`${entryId} vs ${otherId}`] ?? null;
  };
  return { read, asked };
}

describe("buildProgressTimeline", () => {
  it("compares the perturbed counts before rounding (section 12), not the shown values: equal shown values can still be higher", () => {
    // Two entries both shown as 0.71 (whole points on a small type) whose perturbed counts over n are 0.705 and 0.714.
    const reader = viewReader({ "b vs a": notDifferent(0) });
    const timeline = buildProgressTimeline([entry("a", "2026-01-01", 0.71, true, { order: 0.705 }), entry("b", "2026-02-01", 0.71, true, { order: 0.714 })], reader.read);
    expect(timeline.points.map((point) => [point.id, point.status])).toEqual([
      ["a", "first"],
      ["b", "not-significant"],
    ]);
    expect(reader.asked).toEqual(["b vs a"]);
    // Same day: the higher perturbed count comes first, whatever the shown values say.
    const sameDay = buildProgressTimeline([entry("c", "2026-03-01", 0.71, true, { order: 0.705 }), entry("d", "2026-03-01", 0.71, true, { order: 0.714 })], viewReader({}).read);
    expect(sameDay.points.map((point) => point.id)).toEqual(["d", "c"]);
  });

  it("opens with the first tested entry and marks a significant improvement as the new state of the art", () => {
    const reader = viewReader({ "b vs a": better(0.6) });
    const timeline = buildProgressTimeline([entry("b", "2026-03-01", 0.7), entry("a", "2026-01-01", 0.1)], reader.read);
    expect(timeline.points.map((point) => [point.id, point.status, point.best, point.sotaId])).toEqual([
      ["a", "first", 0.1, "a"],
      ["b", "sota", 0.7, "b"],
    ]);
    // The step carries the view's reading (verdict, p bucket, difference of the shown values): no b, c or exact p (section 12).
    expect(timeline.points[1]?.test).toEqual({ againstId: "a", againstSystem: "A", verdict: "better", pBucket: "< 0.05", difference: 0.6 });
    expect(reader.asked).toEqual(["b vs a"]);
  });

  it("shows a higher but non-significant entry as not significantly better and keeps the state of the art", () => {
    // C is read against A (still the state of the art), not against B: the C-vs-B reading would say otherwise.
    const reader = viewReader({ "b vs a": notDifferent(0.5), "c vs a": better(0.6, "< 0.01"), "c vs b": notDifferent(0.1) });
    const timeline = buildProgressTimeline(
      [entry("a", "2026-01-01", 0.1), entry("b", "2026-02-01", 0.6), entry("c", "2026-03-01", 0.7)],
      reader.read,
    );
    expect(timeline.points.map((point) => [point.id, point.status, point.best, point.sotaId])).toEqual([
      ["a", "first", 0.1, "a"],
      ["b", "not-significant", 0.6, "a"],
      ["c", "sota", 0.7, "c"],
    ]);
    expect(timeline.points[1]?.test).toEqual({ againstId: "a", againstSystem: "A", verdict: "no significant difference", pBucket: ">= 0.05", difference: 0.5 });
    expect(timeline.points[2]?.test).toMatchObject({ againstId: "a", verdict: "better", pBucket: "< 0.01" });
    expect(reader.asked).toEqual(["b vs a", "c vs a"]);
  });

  it("tests an entry below a higher non-significant one against the state of the art, and can make it the next one", () => {
    const reader = viewReader({ "b vs a": notDifferent(0.35), "c vs a": better(0.3) });
    const timeline = buildProgressTimeline(
      [entry("a", "2026-01-01", 0.25), entry("b", "2026-02-01", 0.6), entry("c", "2026-03-01", 0.55)],
      reader.read,
    );
    expect(timeline.points.map((point) => [point.id, point.status, point.best, point.sotaId])).toEqual([
      ["a", "first", 0.25, "a"],
      ["b", "not-significant", 0.6, "a"],
      ["c", "sota", 0.6, "c"],
    ]);
    expect(timeline.points[1]?.test).toMatchObject({ againstId: "a", verdict: "no significant difference" });
    expect(timeline.points[2]?.test).toEqual({ againstId: "a", againstSystem: "A", verdict: "better", pBucket: "< 0.05", difference: 0.3 });
    expect(reader.asked).toEqual(["b vs a", "c vs a"]);
  });

  it("treats a tie with the best value as not higher, without a test", () => {
    const reader = viewReader({});
    const timeline = buildProgressTimeline(
      [entry("a", "2026-01-01", 0.5), entry("b", "2026-02-01", 0.5), entry("c", "2026-02-02", 0.4)],
      reader.read,
    );
    expect(timeline.points.map((point) => [point.id, point.status, point.test])).toEqual([
      ["a", "first", null],
      ["b", "not-higher", null],
      ["c", "not-higher", null],
    ]);
    expect(reader.asked).toEqual([]);
  });

  it("takes entries of the same day best first, so a day gives at most one new state of the art", () => {
    const reader = viewReader({ "high vs a": better(0.6), "low vs a": better(0.1) });
    const timeline = buildProgressTimeline(
      [entry("a", "2026-01-01", 0.1), entry("low", "2026-02-01", 0.2), entry("high", "2026-02-01", 0.7)],
      reader.read,
    );
    expect(timeline.points.map((point) => [point.id, point.status, point.best])).toEqual([
      ["a", "first", 0.1],
      ["high", "sota", 0.7],
      ["low", "not-higher", 0.7],
    ]);
    expect(reader.asked).toEqual(["high vs a"]);
  });

  it("leaves out hidden, withdrawn and undated entries", () => {
    const reader = viewReader({ "b vs a": notDifferent(0.1), "hidden vs a": better(0.8), "undated vs a": better(0.7) });
    const timeline = buildProgressTimeline(
      [
        entry("a", "2026-01-01", 0.1),
        entry("hidden", "2026-02-01", 0.9, true, { isPublic: false }),
        entry("undated", null, 0.8),
        entry("b", "2026-03-01", 0.2),
      ],
      reader.read,
    );
    expect(timeline.points.map((point) => [point.id, point.status])).toEqual([
      ["a", "first"],
      ["b", "not-significant"],
    ]);
    expect(timeline.points[1]?.test).toMatchObject({ againstId: "a", verdict: "no significant difference", pBucket: ">= 0.05", difference: 0.1 });
    expect(reader.asked).toEqual(["b vs a"]);
  });

  it("does not make an entry the state of the art when the view has no reading of the pair", () => {
    const timeline = buildProgressTimeline([entry("a", "2026-01-01", 0.1), entry("b", "2026-02-01", 0.7)], viewReader({}).read);
    expect(timeline.points.map((point) => [point.id, point.status, point.sotaId, point.test])).toEqual([
      ["a", "first", "a", null],
      ["b", "not-significant", "a", null],
    ]);
  });

  it("includes baselines, marked as such, as any other tested entry", () => {
    const timeline = buildProgressTimeline(
      [entry("bm25", "2026-01-01", 0.1, true, { kind: "baseline" }), entry("a", "2026-02-01", 0.7)],
      viewReader({ "a vs bm25": better(0.6) }).read,
    );
    expect(timeline.points.map((point) => [point.id, point.kind, point.status])).toEqual([
      ["bm25", "baseline", "first"],
      ["a", "submission", "sota"],
    ]);
  });

  it("draws reported rows at their paper's date but never makes them a state of the art or part of the line", () => {
    const reader = viewReader({ "b vs a": better(0.6) });
    const timeline = buildProgressTimeline(
      [
        entry("paper", "2025-12-01", 0.95, false, { kind: "reported" }),
        entry("a", "2026-01-01", 0.1),
        entry("undated-paper", null, 0.5, false, { kind: "reported" }),
        entry("b", "2026-03-01", 0.7),
      ],
      reader.read,
    );
    expect(timeline.points.map((point) => [point.id, point.status, point.best, point.sotaId])).toEqual([
      ["paper", "reported", null, null],
      ["a", "first", 0.1, "a"],
      ["b", "sota", 0.7, "b"],
    ]);
    expect(timeline.undatedReported).toEqual([{ id: "undated-paper", system: "UNDATED-PAPER", value: 0.5 }]);
    expect(reader.asked).toEqual(["b vs a"]);
  });

  it("draws a stale score as untested: it neither opens the timeline nor moves the line", () => {
    const reader = viewReader({});
    const timeline = buildProgressTimeline([entry("stale", "2026-01-01", 0.9, false), entry("a", "2026-02-01", 0.1)], reader.read);
    expect(timeline.points.map((point) => [point.id, point.status, point.best])).toEqual([
      ["stale", "untested", null],
      ["a", "first", 0.1],
    ]);
    expect(describeProgressStatus(timeline.points[0]!)).toBe("scored against other gold: not tested");
    expect(reader.asked).toEqual([]);
  });
});
