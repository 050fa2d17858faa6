import { chiSquareUpperTail1 } from "./erfc";
import { exactMcNemarP } from "./exact-binomial";

/**
 * McNemar's test on the discordant pairs of two systems (section 9):
 * b = A right and B wrong, c = A wrong and B right.
 */

export type McNemarResult = {
  b: number;
  c: number;
  /** max(0, |b - c| - 1)^2 / (b + c), 0 when b + c = 0 (continuity corrected). */
  chi2: number;
  /** Upper tail of chi-square with 1 degree of freedom at `chi2`. */
  p: number;
  /** Exact two-sided binomial p-value. */
  p_exact: number;
};

function assertCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
}

export function mcnemarChi2(b: number, c: number): number {
  const discordant = b + c;
  if (discordant === 0) {
    return 0;
  }
  const corrected = Math.max(0, Math.abs(b - c) - 1);
  return (corrected * corrected) / discordant;
}

export function mcnemarTest(b: number, c: number): McNemarResult {
  assertCount("b", b);
  assertCount("c", c);
  const chi2 = mcnemarChi2(b, c);
  return { b, c, chi2, p: chiSquareUpperTail1(chi2), p_exact: exactMcNemarP(b, c) };
}
