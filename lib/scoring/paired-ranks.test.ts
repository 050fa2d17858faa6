import { describe, expect, it } from "vitest";
import { packBits } from "./bitset";
import { computePairedRanks } from "./paired-ranks";

/** A system right on the first `right` of `n` samples (nested sets: each pair's b or c is 0). */
const firstRight = (id: string, right: number, n = 100) => ({ id, bits: packBits(Array.from({ length: n }, (_, i) => (i < right ? 1 : 0))) });

describe("computePairedRanks (protocol section 13)", () => {
  it("separates three systems whose intervals overlap but whose paired tests do not", () => {
    // 60, 50, 40 of 100 right: 95% intervals of about +-10 points overlap pairwise.
    // A vs B: b = 10, c = 0, chi2 = 9^2 / 10 = 8.1, p = 0.0044265; A vs C: b = 20, chi2 = 19^2 / 20 = 18.05, p = 2.1518e-5.
    const ranks = computePairedRanks([firstRight("A", 60), firstRight("B", 50), firstRight("C", 40)]);
    expect([...ranks.ranks]).toEqual([1, 2, 3]);
    expect(ranks.pair(0, 1)).toEqual({ b: 10, c: 0, p: expect.closeTo(0.004426525857919833, 15) });
    // B's family {A: 0.0044265, C: 0.0044265}: Holm doubles both.
    expect(ranks.adjustedInFamilyOf(1, 0)).toBeCloseTo(2 * 0.004426525857919833, 15);
    // C's family {A: 2.1518e-5, B: 0.0044265}: A is doubled, B keeps its p.
    expect(ranks.adjustedInFamilyOf(2, 0)).toBeCloseTo(2 * 2.151786437812016e-5, 15);
    expect(ranks.adjustedInFamilyOf(2, 1)).toBeCloseTo(0.004426525857919833, 15);
    expect(ranks.betterThan(2).map((better) => better.index)).toEqual([0, 1]);
  });

  it("gives identical systems one rank", () => {
    const ranks = computePairedRanks([firstRight("A", 30), firstRight("B", 30)]);
    expect([...ranks.ranks]).toEqual([1, 1]);
    expect(ranks.pair(0, 1)).toEqual({ b: 0, c: 0, p: 1 });
  });

  it("handles a non-transitive triple: A beats C, but B is not separated from either", () => {
    // 60, 55, 50 right: A vs B and B vs C have b = 5, c = 0, chi2 = 3.2, p = 0.07364;
    // A vs C has p = 0.0044265, 0.008853 after Holm in C's family.
    const ranks = computePairedRanks([firstRight("A", 60), firstRight("B", 55), firstRight("C", 50)]);
    expect([...ranks.ranks]).toEqual([1, 1, 2]);
    expect(ranks.isBetter(0, 2)).toBe(true);
    expect(ranks.isBetter(0, 1)).toBe(false);
    expect(ranks.isBetter(1, 2)).toBe(false);
    expect(ranks.adjustedInFamilyOf(1, 0)).toBeCloseTo(2 * 0.07363827012030266, 14);
  });

  it("needs the higher point estimate: a significant pair counts only for the better one", () => {
    const ranks = computePairedRanks([firstRight("low", 20), firstRight("high", 80)]);
    expect([...ranks.ranks]).toEqual([2, 1]);
    expect(ranks.isBetter(0, 1)).toBe(false);
  });
});
