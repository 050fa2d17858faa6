import { describe, expect, it } from "vitest";
import { packBits } from "../scoring/bitset";
import { computePairedRanks } from "./paired-ranks";

/** A system right on the first `right` of `n` samples (nested sets: each pair's b or c is 0). */
const firstRight = (id: string, right: number, n = 100) => ({ id, bits: packBits(Array.from({ length: n }, (_, i) => (i < right ? 1 : 0))) });

describe("computePairedRanks (protocol section 13)", () => {
  it("separates three systems whose intervals overlap but whose paired tests do not", () => {
    // 60, 50, 40 of 100 right: 95% intervals of about +-10 points overlap pairwise.
    // McNemar's exact test: A vs B: b = 10, c = 0, p = 2 * 2^-10 = 0.001953125; A vs C: b = 20, p = 2 * 2^-20.
    const ranks = computePairedRanks([firstRight("A", 60), firstRight("B", 50), firstRight("C", 40)]);
    expect([...ranks.ranks]).toEqual([1, 2, 3]);
    expect([...ranks.rankHi]).toEqual([1, 2, 3]);
    expect(ranks.pair(0, 1)).toEqual({ b: 10, c: 0, p: 0.001953125 });
    // B's family {A: 2^-9, C: 2^-9}: Holm doubles both.
    expect(ranks.adjustedInFamilyOf(1, 0)).toBe(0.00390625);
    // C's family {A: 2^-19, B: 2^-9}: A is doubled, B keeps its p.
    expect(ranks.adjustedInFamilyOf(2, 0)).toBe(2 * 2 ** -19);
    expect(ranks.adjustedInFamilyOf(2, 1)).toBe(0.001953125);
    expect(ranks.betterThan(2).map((better) => better.index)).toEqual([0, 1]);
    expect(ranks.worseThan(0).map((worse) => worse.index)).toEqual([2, 1]);
    // One verdict per pair, read from either side, with the p of the family of the one behind.
    expect(ranks.verdict(0, 1)).toEqual({ verdict: "better", pHolm: 0.00390625 });
    expect(ranks.verdict(1, 0)).toEqual({ verdict: "worse", pHolm: 0.00390625 });
  });

  it("gives identical systems one rank", () => {
    const ranks = computePairedRanks([firstRight("A", 30), firstRight("B", 30)]);
    expect([...ranks.ranks]).toEqual([1, 1]);
    expect([...ranks.rankHi]).toEqual([2, 2]);
    expect(ranks.pair(0, 1)).toEqual({ b: 0, c: 0, p: 1 });
  });

  it("handles a non-transitive triple: A beats C, but B is not separated from either", () => {
    // 60, 55, 50 right: A vs B and B vs C have b = 5, c = 0, exact p = 2 / 32 = 0.0625;
    // A vs C has p = 2^-9, 2^-8 after Holm in C's family.
    const ranks = computePairedRanks([firstRight("A", 60), firstRight("B", 55), firstRight("C", 50)]);
    expect([...ranks.ranks]).toEqual([1, 1, 2]);
    // Rank intervals: A [1, 2] (it beats C), B [1, 3], C [2, 3].
    expect([...ranks.rankHi]).toEqual([2, 3, 3]);
    expect(ranks.isBetter(0, 2)).toBe(true);
    expect(ranks.isBetter(0, 1)).toBe(false);
    expect(ranks.isBetter(1, 2)).toBe(false);
    expect(ranks.adjustedInFamilyOf(1, 0)).toBe(0.125);
    expect(ranks.verdict(1, 0)).toEqual({ verdict: "no significant difference", pHolm: 0.125 });
  });

  it("needs the higher point estimate: a significant pair counts only for the better one", () => {
    const ranks = computePairedRanks([firstRight("low", 20), firstRight("high", 80)]);
    expect([...ranks.ranks]).toEqual([2, 1]);
    expect([...ranks.rankHi]).toEqual([2, 1]);
    expect(ranks.isBetter(0, 1)).toBe(false);
  });
});
