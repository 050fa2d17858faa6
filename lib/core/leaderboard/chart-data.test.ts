import { describe, expect, it } from "vitest";
import { metricBars } from "./chart-data";
import type { EntryScore } from "./entry-types";

const score: EntryScore = {
  n: 400,
  scorerVersion: "1.1.0",
  platformScoringVersion: "1.2.0",
  goldVersion: "gv-0",
  computedAt: "2026-01-01T00:00:00.000Z",
  isStale: false,
  minGroupN: 30,
  coarseBelowN: 1000,
  metrics: { exact: 0.389, mrr: 0.412 },
  ci95: { exact: [0.25, 0.42], mrr: [0.3, 0.5] },
  byType: {},
  byCollection: {},
};

describe("metricBars", () => {
  it("gives the error bars with the digits of the shown numbers, no floating-point tails (section 12)", () => {
    // In percent: 38.9 - 25 in doubles is 13.899999999999999; MRR stays a fraction: 0.412 - 0.3 is 0.11199999999999999.
    const [exact, mrr] = metricBars(score, ["exact", "mrr"]);
    expect(exact).toMatchObject({ value: 38.9, error: [13.9, 3.1] });
    expect(mrr).toMatchObject({ value: 0.412, error: [0.112, 0.088] });
  });
});
