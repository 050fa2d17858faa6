import { describe, expect, it } from "vitest";
import { bootstrapIntervals, percentileOfSorted } from "./bootstrap";
import { metricTablesOf, type MetricTable } from "./metric-values";

const open = metricTablesOf("open");

/** A table of a 0/1 metric: value 1 for the listed codes. */
function binaryTable(oneFor: readonly number[], key: MetricTable["key"] = "exact"): MetricTable {
  const values = new Float64Array(256);
  for (const code of oneFor) {
    values[code] = 1;
  }
  return { key, values };
}

/** 200 samples: codes 1 (exact) for 70, 2 (alias) for 30, 0 for 100. */
function mixedCodes(): Uint8Array {
  const codes = new Uint8Array(200);
  for (let i = 0; i < 200; i += 1) {
    codes[i] = i % 2 === 0 ? 0 : i % 20 < 14 ? 1 : 2;
  }
  return codes;
}

describe("percentileOfSorted (linear interpolation, numpy 'linear')", () => {
  const sorted = Float64Array.from([1, 2, 3, 4, 5]);
  it("interpolates between closest ranks", () => {
    expect(percentileOfSorted(sorted, 0.5)).toBe(3); // h = 2
    expect(percentileOfSorted(sorted, 0.25)).toBe(2); // h = 1
    expect(percentileOfSorted(sorted, 0.1)).toBeCloseTo(1.4, 15); // h = 0.4
    expect(percentileOfSorted(sorted, 0)).toBe(1);
    expect(percentileOfSorted(sorted, 1)).toBe(5);
  });

  it("takes the 2.5th and 97.5th percentiles of 1000 values at h = 24.975 and 974.025", () => {
    const values = Float64Array.from({ length: 1000 }, (_, i) => i);
    expect(percentileOfSorted(values, 0.025)).toBeCloseTo(24.975, 9);
    expect(percentileOfSorted(values, 0.975)).toBeCloseTo(974.025, 9);
  });
});

describe("bootstrapIntervals (protocol section 9)", () => {
  const options = { seed: 42, resamples: 1000 };

  it("is deterministic for a seed and changes with the seed", () => {
    const codes = mixedCodes();
    const first = bootstrapIntervals(codes, open, options);
    expect(bootstrapIntervals(codes, open, options)).toEqual(first);
    expect(bootstrapIntervals(codes, open, { seed: 7, resamples: 1000 })).not.toEqual(first);
  });

  it("gives intervals around the estimate", () => {
    const codes = mixedCodes();
    // exact = 70/200 = 0.35, alias = 100/200 = 0.5
    const [exact, alias] = bootstrapIntervals(codes, open, options);
    for (const [interval, estimate] of [
      [exact, 0.35],
      [alias, 0.5],
    ] as const) {
      expect(interval).toBeDefined();
      const [lo, hi] = interval ?? [Number.NaN, Number.NaN];
      expect(lo).toBeLessThanOrEqual(estimate);
      expect(hi).toBeGreaterThanOrEqual(estimate);
      expect(lo).toBeGreaterThan(estimate - 0.15);
      expect(hi).toBeLessThan(estimate + 0.15);
    }
  });

  it("gives [1, 1] when every sample is right and [0, 0] when none is", () => {
    const allRight = new Uint8Array(50).fill(1);
    expect(bootstrapIntervals(allRight, open, options)).toEqual([
      [1, 1],
      [1, 1],
      [1, 1],
      [1, 1],
    ]);
    const allWrong = new Uint8Array(50);
    expect(bootstrapIntervals(allWrong, open, options)[0]).toEqual([0, 0]);
  });

  it("uses the same resamples for every metric of a group", () => {
    const codes = mixedCodes();
    // "right" on codes {1} and its complement "wrong" on codes {0, 2}: on shared
    // resamples each resample's values sum to 1, so the intervals mirror exactly.
    const [right, wrong] = bootstrapIntervals(codes, [binaryTable([1]), binaryTable([0, 2])], options);
    const [rightLo, rightHi] = right ?? [Number.NaN, Number.NaN];
    const [wrongLo, wrongHi] = wrong ?? [Number.NaN, Number.NaN];
    expect(wrongLo).toBeCloseTo(1 - rightHi, 12);
    expect(wrongHi).toBeCloseTo(1 - rightLo, 12);
  });

  it("needs samples and a positive number of resamples", () => {
    expect(() => bootstrapIntervals(new Uint8Array(0), open, options)).toThrow(RangeError);
    expect(() => bootstrapIntervals(mixedCodes(), open, { seed: 42, resamples: 0 })).toThrow(RangeError);
  });
});
