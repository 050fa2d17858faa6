import { describe, expect, it } from "vitest";
import {
  mrrToThousandths,
  NOISE_OFFSET,
  NOISE_PMF,
  noiseOf,
  pairKey,
  perturbCount,
  perturbGroup,
  perturbPair,
  rateToPoints,
  rateToTenths,
  runningMaximum,
  shownValueInterval,
} from "./perturb";

// Expected noise from Python's hmac module, following protocol v1.3 section 12's text:
// z1 = popcount(H[0..3]) - popcount(H[4..7]), H = HMAC-SHA-256(secret, "perturb/" + release + "/" + key);
// z2 = popcount(G[0]) - popcount(G[1]),      G = HMAC-SHA-256(secret, "perturb2/" + release + "/" + gold version + "/" + key).
const SECRET = "test-secret-of-at-least-32-characters!!";
const context = (goldVersion: string) => ({ secret: SECRET, releaseName: "irc-bench", goldVersion });

describe("the noise of a public count (protocol section 12, v1.3)", () => {
  it("is z1 + z2 from the two HMACs' popcounts", () => {
    // (z1, z2): entry-1/hit@1/all (-1, 3); entry-1/alias/type/Person (-6, 2); a+b/m/unified/all (-2, -1).
    expect(noiseOf(context("gv-0123456789abcdef"), "entry-1/hit@1/all")).toBe(2);
    expect(noiseOf(context("gv-0123456789abcdef"), "entry-1/alias/type/Person")).toBe(-4);
    expect(noiseOf(context("gv-0123456789abcdef"), "a+b/m/unified/all")).toBe(-3);
  });

  it("keeps z1 and redraws z2 when the gold changes", () => {
    // Under gv-fedcba9876543210: (-1, -2), (-6, 1), (-2, -1).
    expect(noiseOf(context("gv-fedcba9876543210"), "entry-1/hit@1/all")).toBe(-3);
    expect(noiseOf(context("gv-fedcba9876543210"), "entry-1/alias/type/Person")).toBe(-5);
    expect(noiseOf(context("gv-fedcba9876543210"), "a+b/m/unified/all")).toBe(-3);
  });

  it("has the public distribution: mean 0, variance 16 + 4, support -40..40", () => {
    const total = NOISE_PMF.reduce((sum, p) => sum + p, 0);
    const variance = NOISE_PMF.reduce((sum, p, i) => sum + p * (i - NOISE_OFFSET) ** 2, 0);
    expect(NOISE_PMF).toHaveLength(81);
    expect(total).toBeCloseTo(1, 12);
    expect(variance).toBeCloseTo(20, 10);
  });
});

describe("perturbed counts", () => {
  it("clamps k + z to [0, n]", () => {
    expect(perturbCount(3, 10, -5)).toBe(0);
    expect(perturbCount(8, 10, 4)).toBe(10);
    expect(perturbCount(5, 10, 2)).toBe(7);
  });

  it("replaces each cumulative series by its running maximum; alias_hit@1 and the MRR sum are at least hit@1's", () => {
    expect(runningMaximum({ exact: 30, alias: 28, contain: 35, jaccard: 33 })).toEqual({ exact: 30, alias: 30, contain: 35, jaccard: 35 });
    expect(runningMaximum({ "hit@1": 40, "hit@3": 39, "hit@5": 50, "hit@10": 49, "alias_hit@1": 38, mrr: 39.5 })).toEqual({
      "hit@1": 40,
      "hit@3": 40,
      "hit@5": 50,
      "hit@10": 50,
      "alias_hit@1": 40,
      mrr: 40,
    });
  });

  it("keys each metric of a group by ENTRY/METRIC/GROUP", () => {
    // entry-1/alias/type/Person has z = -4 (above): 20 - 4 = 16.
    expect(perturbGroup(context("gv-0123456789abcdef"), "entry-1", "type/Person", 50, { alias: 20 }).alias).toBe(16);
  });

  it("rounds half up on integers: tenths of a point, whole points, MRR to 3 decimals", () => {
    // 1/8 = 0.125 exactly: half up to 0.125 (tenths); 1/16 = 0.0625 -> 0.063; 5/7 = 0.714... -> 71 points.
    expect(rateToTenths(1, 16)).toBe(0.063);
    expect(rateToTenths(333, 1000)).toBe(0.333);
    expect(rateToPoints(5, 7)).toBe(0.71);
    expect(rateToPoints(1, 8)).toBe(0.13);
    expect(mrrToThousandths(12.3456, 100)).toBe(0.123);
    expect(mrrToThousandths(12.35, 100)).toBe(0.124);
  });
});

describe("pairs", () => {
  it("joins the two ids in ascending byte order", () => {
    expect(pairKey("b", "a", "hit@1", "all")).toBe("a+b/m/hit@1/all");
    expect(pairKey("a", "b", "unified", "type/Place")).toBe("a+b/m/unified/type/Place");
    // Byte order, not locale order: "Z" (0x5a) sorts before "a" (0x61).
    expect(pairKey("a", "Z", "alias", "all")).toBe("Z+a/m/alias/all");
  });

  it("makes b' and c' from the shown difference and a perturbed discordant total, never against the difference", () => {
    expect(perturbPair(3, 9, 2)).toEqual({ b: 7, c: 4 }); // m' = 11, 11 + 3 even
    expect(perturbPair(3, 8, 2)).toEqual({ b: 7, c: 4 }); // m' = 10, odd with d: 11
    expect(perturbPair(-5, 2, -1)).toEqual({ b: 0, c: 5 }); // m' = max(5, 1) = 5
  });
});

describe("intervals of shown values", () => {
  it("are Binomial(n, v) quantiles for the owner and contain v", () => {
    // Python (math.comb): Binomial(100, 0.333) quantiles 24 and 43.
    expect(shownValueInterval(0.333, 100, false)).toEqual([0.24, 0.43]);
    // A value with no mass around it is still inside: MRR 0.003 of 1,000 samples.
    const [low, high] = shownValueInterval(0.003, 1000, false);
    expect(low).toBeLessThanOrEqual(0.003);
    expect(high).toBeGreaterThanOrEqual(0.003);
  });

  it("add the noise's distribution for public values", () => {
    // Python: Binomial(100, 0.35) plus the noise, clamped to [0, 100]: quantiles 22 and 48.
    expect(shownValueInterval(0.35, 100, true)).toEqual([0.22, 0.48]);
    const [low, high] = shownValueInterval(0, 30, true);
    expect(low).toBe(0);
    expect(high).toBeGreaterThan(0.2);
  });
});
