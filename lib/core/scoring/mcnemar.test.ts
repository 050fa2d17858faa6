import { describe, expect, it } from "vitest";
import { mcnemarChi2, mcnemarTest } from "./mcnemar";

function expectRelativelyClose(actual: number, expected: number, tolerance = 1e-12): void {
  expect(Math.abs(actual / expected - 1)).toBeLessThan(tolerance);
}

describe("McNemar with continuity correction (protocol section 9)", () => {
  // Paper Table 9: chi2 = (|b - c| - 1)^2 / (b + c).
  it.each([
    // (|120 - 400| - 1)^2 / 520 = 279^2 / 520 = 77841 / 520 = 149.694...
    [120, 400, 149.69],
    // 124^2 / 425 = 15376 / 425 = 36.178...
    [150, 275, 36.18],
    // 688^2 / 1095 = 473344 / 1095 = 432.277...
    [892, 203, 432.28],
    // 577^2 / 1830 = 332929 / 1830 = 181.928...
    [1204, 626, 181.93],
  ])("b = %i, c = %i gives chi2 = %s", (b, c, chi2) => {
    expect(mcnemarChi2(b, c)).toBeCloseTo(chi2, 2);
  });

  it("is symmetric in b and c (protocol check: b = 203, c = 892)", () => {
    expect(mcnemarChi2(203, 892)).toBeCloseTo(432.28, 2);
  });

  it("is 0 without discordant pairs or when the correction cancels the difference", () => {
    expect(mcnemarChi2(0, 0)).toBe(0);
    expect(mcnemarChi2(7, 7)).toBe(0);
    // |1 - 0| - 1 = 0
    expect(mcnemarChi2(1, 0)).toBe(0);
  });

  it("reports chi2, p and p_exact together", () => {
    const result = mcnemarTest(120, 400);
    expect(result.b).toBe(120);
    expect(result.c).toBe(400);
    expect(result.chi2).toBe(77841 / 520);
    // p = erfc(sqrt(chi2 / 2)) at chi2 = 77841/520, 420-digit decimal reference.
    expectRelativelyClose(result.p, 2.02206005047207701e-34);
    // 2 * sum_{i <= 120} C(520, i) / 2^520 in exact integer arithmetic.
    expectRelativelyClose(result.p_exact, 3.41184821426501648e-36);
  });

  it.each([
    [150, 275, 1.80016113416674096e-9, 1.38076473153385163e-9],
    [892, 203, 5.18998430426105419e-96, 1.93988913230820247e-103],
    [1204, 626, 1.83815078965557789e-41, 3.82270329248453804e-42],
    [10, 20, 0.100348246462290736, 0.0987371467053890228],
  ])("b = %i, c = %i: p = %s, p_exact = %s", (b, c, p, pExact) => {
    const result = mcnemarTest(b, c);
    expectRelativelyClose(result.p, p);
    expectRelativelyClose(result.p_exact, pExact);
  });

  it("gives p = 1 and p_exact = 1 without discordant pairs", () => {
    expect(mcnemarTest(0, 0)).toEqual({ b: 0, c: 0, chi2: 0, p: 1, p_exact: 1 });
  });

  it("rejects counts that are not non-negative integers", () => {
    expect(() => mcnemarTest(-1, 3)).toThrow(RangeError);
    expect(() => mcnemarTest(1.5, 3)).toThrow(RangeError);
  });
});
