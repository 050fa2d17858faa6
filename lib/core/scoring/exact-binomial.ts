/**
 * The exact two-sided binomial (sign) test of a McNemar table (section 9):
 * p_exact = min(1, 2 P(X <= min(b, c))), X ~ Binomial(b + c, 1/2); 1 when
 * b + c = 0.
 *
 * With m = b + c and k = min(b, c) <= m / 2 the terms C(m, i) / 2^m grow with
 * i up to k, so the sum is taken relative to its last term:
 * P(X <= k) = C(m, k) 2^-m (1 + r_k + r_k r_(k-1) + ...), r_i = i / (m - i + 1),
 * where C(m, k) 2^-m is a product of ratios for m <= 1000 and a sum of logs
 * beyond. Nothing overflows for m in the millions; a result below ~5e-324
 * underflows to 0.
 */

/** Below this many pairs 2^-m is a normal double and C(m, k) 2^-m is built by products. */
const LINEAR_LIMIT = 1000;

/**
 * C(m, k) / 2^m for 0 <= k <= m / 2. For small m it starts from 2^-m (exact)
 * and multiplies by (m - k + i) / i, so tiny cases like k = 0 stay exact; for
 * large m it sums logs of those ratios, where 2^-m alone would underflow.
 */
function binomialHalfTerm(m: number, k: number): number {
  if (m <= LINEAR_LIMIT) {
    let term = 2 ** -m;
    for (let i = 1; i <= k; i += 1) {
      term = (term * (m - k + i)) / i;
    }
    return term;
  }
  let logTerm = -m * Math.LN2;
  for (let i = 1; i <= k; i += 1) {
    logTerm += Math.log((m - k + i) / i);
  }
  return Math.exp(logTerm);
}

/** P(X <= k) for X ~ Binomial(m, 1/2), for 0 <= k <= m / 2. */
export function binomialHalfLowerTail(m: number, k: number): number {
  if (!Number.isInteger(m) || !Number.isInteger(k) || m < 0 || k < 0 || 2 * k > m) {
    throw new RangeError(`need integers 0 <= k <= m / 2, got m = ${m}, k = ${k}`);
  }
  return binomialHalfTerm(m, k) * relativeTailSum(m, k);
}

/** P(X <= k) / P(X = k): 1 + r_k + r_k r_(k-1) + ..., stopped once a term no longer moves the sum. */
function relativeTailSum(m: number, k: number): number {
  let relativeSum = 1;
  let ratio = 1;
  for (let i = k; i >= 1; i -= 1) {
    // C(m, i - 1) / C(m, i) = i / (m - i + 1)
    ratio *= i / (m - i + 1);
    relativeSum += ratio;
    if (ratio < relativeSum * Number.EPSILON) {
      break;
    }
  }
  return relativeSum;
}

export function exactMcNemarP(b: number, c: number): number {
  const m = b + c;
  if (m === 0) {
    return 1;
  }
  return Math.min(1, 2 * binomialHalfLowerTail(m, Math.min(b, c)));
}

/**
 * exactMcNemarP for many pairs of one split of at most `maxPairs` discordant
 * samples: C(m, k) 2^-m from a table of log-factorials instead of k logs per
 * pair (the paired ranks of section 13 test every pair of a view). Equal to
 * exactMcNemarP up to rounding of the last few bits for m above 1000, the
 * same code below.
 */
export function createExactMcNemar(maxPairs: number): (b: number, c: number) => number {
  const logFactorial = new Float64Array(maxPairs + 1);
  for (let i = 2; i <= maxPairs; i += 1) logFactorial[i] = logFactorial[i - 1]! + Math.log(i);
  return (b, c) => {
    const m = b + c;
    if (m <= LINEAR_LIMIT || m > maxPairs) return exactMcNemarP(b, c);
    const k = Math.min(b, c);
    const term = Math.exp(logFactorial[m]! - logFactorial[k]! - logFactorial[m - k]! - m * Math.LN2);
    return Math.min(1, 2 * term * relativeTailSum(m, k));
  };
}
