import { describe, expect, it } from "vitest";
import { ownerInterval } from "./owner-interval";

// Quantiles computed outside this code with exact rationals (python3 fractions, math.comb).
describe("ownerInterval", () => {
  it("is the 2.5% and 97.5% quantiles of Binomial(n, p) / n at the disclosed value", () => {
    expect(ownerInterval(0.5, 100)).toEqual([0.4, 0.6]);
    // 25 of 56 (0.446): quantiles 18 and 32
    expect(ownerInterval(0.446, 56)).toEqual([18 / 56, 32 / 56]);
    expect(ownerInterval(0.35, 1000)).toEqual([0.321, 0.38]);
    expect(ownerInterval(0.1, 10)).toEqual([0, 0.3]);
  });

  it("is a point at 0 and 1", () => {
    expect(ownerInterval(0, 10)).toEqual([0, 0]);
    expect(ownerInterval(1, 10)).toEqual([1, 1]);
  });

  it("depends on the disclosed value only: every count that rounds to it gives the same interval", () => {
    // 4,633 samples: 1,621 and 1,622 right both show 0.350
    const n = 4633;
    expect(Number((1621 / n).toFixed(3))).toBe(0.35);
    expect(Number((1622 / n).toFixed(3))).toBe(0.35);
    const shown = ownerInterval(0.35, n);
    expect(ownerInterval(Number((1621 / n).toFixed(3)), n)).toEqual(shown);
    expect(ownerInterval(Number((1622 / n).toFixed(3)), n)).toEqual(shown);
    expect(shown[0]).toBeLessThan(0.35);
    expect(shown[1]).toBeGreaterThan(0.35);
  });
});
