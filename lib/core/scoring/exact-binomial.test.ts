import { describe, expect, it } from "vitest";
import { binomialHalfLowerTail, exactMcNemarP } from "./exact-binomial";

describe("exact two-sided binomial p (protocol section 9)", () => {
  it("b = 0, c = 5: 2 * (1/32) = 0.0625", () => {
    expect(exactMcNemarP(0, 5)).toBeCloseTo(0.0625, 15);
  });

  it("b = 1, c = 4: 2 * (1 + 5)/32 = 0.375", () => {
    expect(exactMcNemarP(1, 4)).toBeCloseTo(0.375, 15);
  });

  it("b = 3, c = 10: 2 * (1 + 13 + 78 + 286) / 8192 = 756/8192", () => {
    expect(exactMcNemarP(3, 10)).toBeCloseTo(756 / 8192, 15);
  });

  it("caps at 1: b = c = 2 gives 2 * 11/16 = 1.375 -> 1", () => {
    expect(exactMcNemarP(2, 2)).toBe(1);
    expect(exactMcNemarP(0, 1)).toBe(1); // 2 * 1/2
    expect(exactMcNemarP(2500, 2500)).toBe(1);
  });

  it("is 1 without discordant pairs", () => {
    expect(exactMcNemarP(0, 0)).toBe(1);
  });

  it("works in log space for thousands of pairs", () => {
    // b = 0, c = 1000: 2 * 2^-1000 = 2^-999, about 1.87e-301, still a normal double.
    expect(Math.abs(exactMcNemarP(0, 1000) / 2 ** -999 - 1)).toBeLessThan(1e-12);
    // b = 1, c = 999: 2 * (1 + 1000) / 2^1000 = 1001 * 2^-999.
    expect(Math.abs(exactMcNemarP(1, 999) / (1001 * 2 ** -999) - 1)).toBeLessThan(1e-12);
    // Exact integer sums (Python fractions) for comparison, m = 1100 and m = 4150.
    expect(Math.abs(exactMcNemarP(450, 650) / 1.78584810926307001e-9 - 1)).toBeLessThan(1e-11);
    expect(Math.abs(exactMcNemarP(2150, 2000) / 2.07154560492672189e-2 - 1)).toBeLessThan(1e-11);
    // Underflows to 0 rather than NaN far below the double range.
    expect(exactMcNemarP(0, 5000)).toBe(0);
  });

  it("sums the lower tail", () => {
    // P(X <= 2), X ~ Bin(6, 1/2) = (1 + 6 + 15) / 64
    expect(binomialHalfLowerTail(6, 2)).toBeCloseTo(22 / 64, 15);
    expect(() => binomialHalfLowerTail(6, 4)).toThrow(RangeError);
  });
});

describe("createExactMcNemar (many pairs)", () => {
  it("agrees with exact rational arithmetic to 1e-10 relative, above and below 1000 pairs", async () => {
    const { createExactMcNemar } = await import("./exact-binomial");
    const exact = createExactMcNemar(5000);
    // From Python: float(min(1, Fraction(2 * sum(comb(m, i) for i in range(k + 1)), 2 ** m))).
    const expected: [number, number, number][] = [
      [400, 450, 0.0927654499704894],
      [600, 700, 0.0060157938610449525],
      [1200, 1300, 0.047681865221043604],
      [2000, 2400, 1.753122444980596e-9],
    ];
    for (const [b, c, p] of expected) expect(Math.abs(exact(b, c) - p)).toBeLessThanOrEqual(p * 1e-10);
    expect(exact(2300, 2300)).toBe(1);
  });
});
