/**
 * The complementary error function, accurate to a few 1e-15 relative over the
 * whole range where it does not underflow (it returns values like 2e-34, and
 * below 1e-300, rather than 0). Used for McNemar p-values (section 9).
 *
 * With z = x^2, erfc(x) equals the regularised upper incomplete gamma function
 * Q(1/2, z), evaluated as in Numerical Recipes (2nd ed., section 6.2):
 * - z < 1.5: erfc = 1 - erf, with the all-positive series
 *   erf(x) = (2x / sqrt(pi)) e^(-z) sum_n (2z)^n / (1 * 3 * ... * (2n + 1));
 * - z >= 1.5: Q(1/2, z) = e^(-z) sqrt(z) / sqrt(pi) * h, h the continued
 *   fraction 1/(z + 1/2 - (1 * 1/2)/(z + 5/2 - (2 * 3/2)/(z + 9/2 - ...))),
 *   evaluated with the modified Lentz method.
 * e^(-x^2) is computed from an exact split of x^2, so large x keeps its
 * precision.
 */

const SQRT_PI = Math.sqrt(Math.PI);
const SERIES_LIMIT = 1.5;
const EPSILON = Number.EPSILON;
const TINY = 1e-300;
const MAX_ITERATIONS = 10_000;

/** sum_n (2z)^n / (1 * 3 * ... * (2n + 1)), all terms positive. */
function erfSeriesSum(z: number): number {
  let term = 1;
  let sum = 1;
  for (let n = 1; n < MAX_ITERATIONS; n += 1) {
    term *= (2 * z) / (2 * n + 1);
    sum += term;
    if (term < sum * EPSILON) {
      break;
    }
  }
  return sum;
}

/** The continued fraction h of Q(1/2, z) = e^(-z) sqrt(z) h / sqrt(pi), for z >= 1.5. */
function upperGammaHalfFraction(z: number): number {
  const a = 0.5;
  let b = z + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_ITERATIONS; i += 1) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) {
      d = TINY;
    }
    c = b + an / c;
    if (Math.abs(c) < TINY) {
      c = TINY;
    }
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) <= EPSILON) {
      break;
    }
  }
  return h;
}

/** erfc(x) for x >= 0, given z = x^2 and e^(-z). */
function erfcNonNegative(x: number, z: number, expMinusZ: number): number {
  if (z < SERIES_LIMIT) {
    const erf = ((2 * x) / SQRT_PI) * expMinusZ * erfSeriesSum(z);
    return 1 - erf;
  }
  return (expMinusZ * x * upperGammaHalfFraction(z)) / SQRT_PI;
}

/** e^(-x^2) without the rounding error of x * x: x = hi + lo with hi * hi exact. */
function expMinusSquare(x: number): number {
  const scaled = x * 134217729; // 2^27 + 1, Dekker's split
  const hi = scaled - (scaled - x);
  const lo = x - hi;
  return Math.exp(-hi * hi) * Math.exp(-(2 * hi * lo + lo * lo));
}

export function erfc(x: number): number {
  if (Number.isNaN(x)) {
    return Number.NaN;
  }
  if (x < 0) {
    return 2 - erfc(-x);
  }
  if (x === Number.POSITIVE_INFINITY) {
    return 0;
  }
  return erfcNonNegative(x, x * x, expMinusSquare(x));
}

/**
 * Upper tail of the chi-square distribution with 1 degree of freedom:
 * P(X >= chi2) = erfc(sqrt(chi2 / 2)), computed from z = chi2 / 2 directly.
 */
export function chiSquareUpperTail1(chi2: number): number {
  if (Number.isNaN(chi2)) {
    return Number.NaN;
  }
  if (chi2 <= 0) {
    return 1;
  }
  if (chi2 === Number.POSITIVE_INFINITY) {
    return 0;
  }
  const z = chi2 / 2;
  return erfcNonNegative(Math.sqrt(z), z, Math.exp(-z));
}
