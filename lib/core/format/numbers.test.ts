import { describe, expect, it } from "vitest";
import { formatDifference, formatEstimate, formatParameterCount, formatParameterCountForEditing, formatSuppressedGroup, formatValue, parseParameterCount } from "./numbers";
import { formatPBucket, formatPBucketValue, formatPStatement, formatPValue } from "./p-values";

describe("formatting scores", () => {
  it("shows rates as percentages with one decimal and their interval", () => {
    expect(formatValue(0.3894, "alias")).toBe("38.9");
    expect(formatEstimate({ value: 0.3894, ci95: [0.375, 0.4031] }, "alias")).toBe("38.9 [37.5, 40.3]");
    expect(formatEstimate({ value: 0.5, ci95: null }, "exact")).toBe("50.0");
    expect(formatEstimate(null, "exact")).toBe("–");
  });

  it("shows MRR as a decimal", () => {
    expect(formatEstimate({ value: 0.4751, ci95: [0.46, 0.4899] }, "mrr")).toBe("0.475 [0.460, 0.490]");
  });

  it("writes signed differences in percentage points", () => {
    expect(formatDifference(0.0342, "alias")).toBe("+3.4");
    expect(formatDifference(-0.012, "hit@1")).toBe("−1.2");
    expect(formatDifference(0.0001, "alias")).toBe("0.0");
  });

  it("writes p-values readably", () => {
    expect(formatPValue(0.0312)).toBe("0.0312");
    expect(formatPValue(0.004283)).toBe("0.00428");
    expect(formatPValue(0.001)).toBe("0.00100");
    expect(formatPValue(4.17e-4)).toBe("< 0.001");
    expect(formatPValue(2.02e-34)).toBe("< 0.001");
    expect(formatPValue(0)).toBe("< 0.001");
    expect(formatPValue(0.04996)).toBe("< 0.05");
    expect(formatPValue(0.05)).toBe("0.0500");
    expect(formatPValue(1)).toBe("1.00");
    expect(formatPValue(Number.NaN)).toBe("–");
  });

  it("writes an exact p and a p bucket in a sentence the same way", () => {
    expect(formatPStatement(0.0312)).toBe("p = 0.0312");
    expect(formatPStatement(0.0004)).toBe("p < 0.001");
    expect(formatPStatement(0.0499)).toBe("p = 0.0499");
    expect(formatPStatement(0.04996)).toBe("p < 0.05");
    expect(formatPBucket(">= 0.05")).toBe("p ≥ 0.05");
    expect(formatPBucketValue(">= 0.05")).toBe("≥ 0.05");
    expect(formatPBucketValue("< 0.001")).toBe("< 0.001");
  });
});

describe("parameter counts", () => {
  it("formats with units", () => {
    expect(formatParameterCount(8e9)).toBe("8B");
    expect(formatParameterCount(110e6)).toBe("110M");
    expect(formatParameterCount(6.5e6)).toBe("6.5M");
    expect(formatParameterCount(1.2e12)).toBe("1.2T");
    expect(formatParameterCount(512)).toBe("512");
    expect(formatParameterCount(null)).toBe("–");
  });

  it("parses what people type", () => {
    expect(parseParameterCount("8B")).toBe(8e9);
    expect(parseParameterCount(" 110m ")).toBe(110e6);
    expect(parseParameterCount("1.5e9")).toBe(1.5e9);
    expect(parseParameterCount("350000000")).toBe(350e6);
    expect(parseParameterCount("2K")).toBe(2000);
    expect(parseParameterCount("")).toBeNull();
    expect(parseParameterCount("-3B")).toBeNull();
    expect(parseParameterCount("eight billion")).toBeNull();
    expect(parseParameterCount("1.3B")).toBe(1_300_000_000);
    expect(parseParameterCount("70B")).toBe(70e9);
    expect(parseParameterCount("350M")).toBe(350e6);
    expect(parseParameterCount("8,000,000,000")).toBe(8e9);
    expect(parseParameterCount("8_000_000_000")).toBe(8e9);
    expect(parseParameterCount("8,00")).toBeNull();
  });

  it("reads back what it writes: the filter, the fact sheet and the pages agree", () => {
    for (const text of ["1.3B", "8B", "350M", "70B", "110M", "6.5M", "1.2T"]) {
      const count = parseParameterCount(text);
      expect(count).not.toBeNull();
      expect(formatParameterCount(count)).toBe(text);
      expect(formatParameterCountForEditing(count ?? 0)).toBe(text);
    }
    expect(formatParameterCountForEditing(1_234_567_891)).toBe("1234567891");
  });
});

describe("formatting a suppressed group", () => {
  it("says the group's size against min_group_n, or that it is hidden with smaller groups", () => {
    expect(formatSuppressedGroup(9, 30)).toBe("n = 9 < 30");
    expect(formatSuppressedGroup(1200, 5000)).toBe("n = 1,200 < 5,000");
    expect(formatSuppressedGroup(40, 30)).toBe("hidden with smaller groups");
    expect(formatSuppressedGroup(null, 30)).toBe("–");
  });
});
