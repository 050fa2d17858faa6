import { describe, expect, it } from "vitest";
import { chiSquareUpperTail1, erfc } from "./erfc";

/**
 * Reference values: erfc to 18 digits from an independent computation (the
 * Taylor series of erf in 420-digit decimal arithmetic, Python `decimal`),
 * and chi-square quantiles from standard tables (qchisq(0.95, 1) etc.).
 */
function expectRelativelyClose(actual: number, expected: number, tolerance = 1e-14): void {
  expect(Math.abs(actual / expected - 1)).toBeLessThan(tolerance);
}

describe("erfc", () => {
  it.each([
    [1e-10, 0.999999999887162039],
    [0.1, 0.887537083981715158],
    [0.5, 0.479500122186953481],
    [1, 0.157299207050285134],
    [1.2247, 0.0832758147980863644],
    [1.5, 0.0338948535246892738],
    [2, 0.00467773498104726623],
    [3, 2.20904969985854412e-5],
    [5, 1.53745979442803494e-12],
    [10, 2.08848758376254488e-45],
    [20, 5.39586561160790118e-176],
    [26, 5.66319240885614319e-296],
  ])("erfc(%s) = %s to 1e-14 relative", (x, expected) => {
    expectRelativelyClose(erfc(x), expected);
  });

  it("handles the edges", () => {
    expect(erfc(0)).toBe(1);
    expect(erfc(Number.POSITIVE_INFINITY)).toBe(0);
    expect(Number.isNaN(erfc(Number.NaN))).toBe(true);
    // erfc(-x) = 2 - erfc(x)
    expectRelativelyClose(erfc(-1), 2 - 0.157299207050285134);
  });
});

describe("chi-square upper tail, 1 degree of freedom", () => {
  it("gives the textbook significance levels at their critical values", () => {
    expectRelativelyClose(chiSquareUpperTail1(3.841458820694124), 0.05, 1e-13);
    expectRelativelyClose(chiSquareUpperTail1(6.634896601021214), 0.01, 1e-13);
    expectRelativelyClose(chiSquareUpperTail1(10.827566170662733), 0.001, 1e-13);
  });

  it("is erfc(sqrt(chi2 / 2))", () => {
    // chi2 = 1: erfc(sqrt(1/2)) = 0.317310507862914093 (the 1-sigma two-sided tail).
    expectRelativelyClose(chiSquareUpperTail1(1), 0.317310507862914093);
    // chi2 = 0.5: erfc(0.5).
    expectRelativelyClose(chiSquareUpperTail1(0.5), 0.479500122186953481);
  });

  it("returns tiny p-values instead of 0", () => {
    // Paper Table 9, O1 vs O2: chi2 = 149.694..., p = 2.022e-34.
    expectRelativelyClose(chiSquareUpperTail1(149.69423076923076), 2.02206005047208642e-34);
    expectRelativelyClose(chiSquareUpperTail1(432.27762557077625), 5.18998430426106832e-96);
  });

  it("is 1 at 0", () => {
    expect(chiSquareUpperTail1(0)).toBe(1);
  });
});
