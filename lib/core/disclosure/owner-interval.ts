/**
 * The 95% interval the owner of an unpublished test file sees (protocol
 * section 12), made from the disclosed value and n only, so that it says
 * nothing the rounded value does not. A percentile-bootstrap interval (§9)
 * of the real outcomes moves its rounded endpoints with almost any single
 * outcome: with the rates, twelve or eighteen numbers that a file of answers
 * known to be wrong around one guess would read that guess from. This one is
 * the percentile-bootstrap interval of the 0/1 outcome vector whose mean is
 * the disclosed value, with infinitely many resamples: the 2.5% and 97.5%
 * quantiles of Binomial(n, p) / n. For MRR (a mean of values in [0, 1]) it is
 * the widest interval such a mean can have, as a 0/1 vector has the largest
 * variance. Published entries and maintainers see the §9 intervals.
 *
 * Pure: no database, no clock.
 */

const TAIL = 0.025;

/** The smallest x with P(X <= x) >= each level, for X ~ Binomial(n, k / n), 0 < k < n. */
function binomialQuantiles(n: number, k: number, levels: readonly [number, number]): [number, number] {
  const p = k / n;
  const logRatio = Math.log(p) - Math.log1p(-p);
  // log P(X = x), from x = 0 upwards; terms far below the bulk underflow to 0 and add nothing.
  let logTerm = n * Math.log1p(-p);
  let cumulative = 0;
  const found: [number, number] = [n, n];
  let level = 0;
  for (let x = 0; x <= n && level < levels.length; x += 1) {
    cumulative += Math.exp(logTerm);
    while (level < levels.length && cumulative >= (levels[level] ?? 1)) {
      found[level] = x;
      level += 1;
    }
    logTerm += Math.log((n - x) / (x + 1)) + logRatio;
  }
  return found;
}

/** The owner's interval for a disclosed value (a fraction in [0, 1]) of a group of n samples, at full precision. */
export function ownerInterval(disclosedValue: number, n: number): [number, number] {
  if (n <= 0) return [0, 0];
  const k = Math.min(n, Math.max(0, Math.round(disclosedValue * n)));
  if (k === 0 || k === n) return [k / n, k / n];
  const [lower, upper] = binomialQuantiles(n, k, [TAIL, 1 - TAIL]);
  return [lower / n, upper / n];
}
