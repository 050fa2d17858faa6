import { createHmac } from "node:crypto";

/**
 * Protocol section 12 (v1.3): every count behind a ranking-slice number that
 * anyone but a maintainer sees is perturbed by seeded noise before it becomes
 * a rate, and every public order is taken from the perturbed counts. Rounding
 * alone does not protect a published number: one probe changed beside an
 * earlier entry moves a shown count whenever it sits at the top of its
 * rounding window. This file is the rule, in the protocol's own steps:
 *
 * - the noise `z = z1 + z2`: `z1 = popcount(H[0..3]) - popcount(H[4..7])`,
 *   H = HMAC-SHA-256(secret, "perturb/" + release name + "/" + key), fixed for
 *   the life of the release name; `z2 = popcount(G[0]) - popcount(G[1])`,
 *   G = HMAC-SHA-256(secret, "perturb2/" + release name + "/" + gold version
 *   id + "/" + key), drawn anew when the gold changes;
 * - `k' = min(n, max(0, k + z))`, then each cumulative series of one group
 *   replaced by its running maximum, then the rate `k' / n` rounded half up on
 *   integers;
 * - a pair's discordant total `m' = max(|d|, m + z)` (raised by one to the
 *   parity of `d`), `b' = (m' + d) / 2`, `c' = (m' - d) / 2`;
 * - intervals: quantiles of `X + Z` clamped to [0, n], X ~ Binomial(n, v) for
 *   the shown value v, Z with z's public distribution; widened to contain v.
 *
 * Pure: the secret, the release name and the gold version id come in as
 * arguments. Stored reports and the offline scorer stay exact; maintainers
 * see unperturbed counts.
 */

/** What keys the noise of one release's public numbers. */
export type NoiseContext = { secret: string; releaseName: string; goldVersion: string };

function popcount(byte: number): number {
  let count = 0;
  for (let value = byte; value !== 0; value &= value - 1) count += 1;
  return count;
}

/** The noise of one count (its key as the protocol spells it: `ENTRY/hit@1/all`, `A+B/m/unified/all`). */
export function noiseOf(context: NoiseContext, key: string): number {
  const h = createHmac("sha256", context.secret).update(`perturb/${context.releaseName}/${key}`, "utf8").digest();
  const g = createHmac("sha256", context.secret).update(`perturb2/${context.releaseName}/${context.goldVersion}/${key}`, "utf8").digest();
  let z1 = 0;
  for (let i = 0; i < 4; i += 1) z1 += popcount(h[i]!) - popcount(h[i + 4]!);
  return z1 + popcount(g[0]!) - popcount(g[1]!);
}

/** `k' = min(n, max(0, k + z))` (k a count, or the MRR's sum of reciprocal ranks). */
export function perturbCount(k: number, n: number, z: number): number {
  return Math.min(n, Math.max(0, k + z));
}

/**
 * The cumulative series of one group, each replaced by its running maximum in
 * this order (open: exact <= alias <= contain <= jaccard; closed: hit@1 <=
 * hit@3 <= hit@5 <= hit@10); alias_hit@1 and the MRR sum are at least hit@1's.
 */
const CUMULATIVE_SERIES: readonly (readonly string[])[] = [
  ["exact", "alias", "contain", "jaccard"],
  ["hit@1", "hit@3", "hit@5", "hit@10"],
];
const AT_LEAST_HIT_AT_1 = ["alias_hit@1", "mrr"] as const;

export function runningMaximum(counts: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = { ...counts };
  for (const series of CUMULATIVE_SERIES) {
    let highest = Number.NEGATIVE_INFINITY;
    for (const metric of series) {
      const value = out[metric];
      if (value === undefined) continue;
      highest = Math.max(highest, value);
      out[metric] = highest;
    }
  }
  const hitAt1 = out["hit@1"];
  if (hitAt1 !== undefined) for (const metric of AT_LEAST_HIT_AT_1) if (out[metric] !== undefined) out[metric] = Math.max(out[metric]!, hitAt1);
  return out;
}

/**
 * The perturbed counts of one group of an entry: each metric's noise keyed by
 * `ENTRY/METRIC/GROUP`, then the running maximum. `counts` are the exact
 * ranking-slice counts (for MRR the sum of reciprocal ranks).
 */
export function perturbGroup(context: NoiseContext, entryId: string, group: string, n: number, counts: Readonly<Record<string, number>>): Record<string, number> {
  const perturbed: Record<string, number> = {};
  for (const [metric, k] of Object.entries(counts)) perturbed[metric] = perturbCount(k, n, noiseOf(context, `${entryId}/${metric}/${group}`));
  return runningMaximum(perturbed);
}

/** A rate to tenths of a point, half up on integers: floor((2000 k' + n) / (2n)) thousandths. */
export function rateToTenths(k: number, n: number): number {
  if (n <= 0) return 0;
  return Math.floor((2000 * k + n) / (2 * n)) / 1000;
}

/** A rate to whole points, half up on integers: floor((200 k' + n) / (2n)) hundredths. */
export function rateToPoints(k: number, n: number): number {
  if (n <= 0) return 0;
  return Math.floor((200 * k + n) / (2 * n)) / 100;
}

/** The MRR from its perturbed sum: half up to 3 decimals. */
export function mrrToThousandths(sum: number, n: number): number {
  if (n <= 0) return 0;
  return Math.floor((1000 * sum) / n + 0.5) / 1000;
}

/** A pair's key: the two entry ids in ascending byte order joined by "+", then "/m/", the compared metric and the group. */
export function pairKey(first: string, second: string, metric: string, group: string): string {
  const [low, high] = Buffer.compare(Buffer.from(first, "utf8"), Buffer.from(second, "utf8")) <= 0 ? [first, second] : [second, first];
  return `${low}+${high}/m/${metric}/${group}`;
}

/**
 * A pair's shown discordant counts from the two shown counts (`d = k'_A - k'_B`)
 * and the perturbed discordant total: `m' = max(|d|, m + z)`, raised by one
 * where `m' + d` is odd; `b' = (m' + d) / 2` (A right, B wrong), `c' = (m' - d) / 2`.
 */
export function perturbPair(d: number, m: number, z: number): { b: number; c: number } {
  let total = Math.max(Math.abs(d), m + z);
  if ((total + d) % 2 !== 0) total += 1;
  return { b: (total + d) / 2, c: (total - d) / 2 };
}

/** z's public distribution: the difference of two Binomial(32, 1/2) plus the difference of two Binomial(8, 1/2), on -40..40. */
export const NOISE_OFFSET = 40;
function binomialHalfPmf(size: number): number[] {
  const out = [1];
  for (let step = 0; step < size; step += 1) {
    const next = new Array<number>(out.length + 1).fill(0);
    out.forEach((p, i) => {
      next[i]! += p / 2;
      next[i + 1]! += p / 2;
    });
    out.splice(0, out.length, ...next);
  }
  return out;
}
function differencePmf(size: number): number[] {
  const pmf = binomialHalfPmf(size);
  const out = new Array<number>(2 * size + 1).fill(0);
  pmf.forEach((p, i) => pmf.forEach((q, j) => (out[i - j + size]! += p * q)));
  return out;
}
function convolve(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array<number>(a.length + b.length - 1).fill(0);
  a.forEach((p, i) => b.forEach((q, j) => (out[i + j]! += p * q)));
  return out;
}
/** P(z = i - NOISE_OFFSET) at index i. */
export const NOISE_PMF: readonly number[] = convolve(differencePmf(32), differencePmf(8));

/** The pmf of X ~ Binomial(n, p) (index x), computed in log space from the mode outwards so nothing underflows that matters. */
function binomialPmf(n: number, p: number): Float64Array {
  const out = new Float64Array(n + 1);
  if (p <= 0) {
    out[0] = 1;
    return out;
  }
  if (p >= 1) {
    out[n] = 1;
    return out;
  }
  const mode = Math.min(n, Math.floor((n + 1) * p));
  const ratio = p / (1 - p);
  out[mode] = 1;
  for (let x = mode; x < n; x += 1) out[x + 1] = out[x]! * ((n - x) / (x + 1)) * ratio;
  for (let x = mode; x > 0; x -= 1) out[x - 1] = out[x]! * (x / (n - x + 1)) / ratio;
  let total = 0;
  for (const value of out) total += value;
  for (let x = 0; x <= n; x += 1) out[x] = out[x]! / total;
  return out;
}

const TAIL = 0.025;

/**
 * The interval of a public rate (section 12): the 2.5% and 97.5% quantiles
 * (the smallest k whose cumulative probability reaches q) of X + Z clamped to
 * [0, n], X ~ Binomial(n, v) for the shown value v, divided by n, widened to
 * contain v. With `withNoise` false, the owner's feedback interval: Binomial(n, v) alone.
 */
export function shownValueInterval(shownValue: number, n: number, withNoise: boolean): [number, number] {
  if (n <= 0) return [shownValue, shownValue];
  // Shown values are rounded, so the same (n, v) comes back for many entries and groups.
  const memoKey = `${withNoise ? "z" : "b"}/${n}/${shownValue}`;
  const known = intervalMemo.get(memoKey);
  if (known !== undefined) return [known[0], known[1]];
  const interval = computeInterval(shownValue, n, withNoise);
  if (intervalMemo.size >= MAX_MEMO) intervalMemo.clear();
  intervalMemo.set(memoKey, interval);
  return [interval[0], interval[1]];
}

const MAX_MEMO = 50_000;
const intervalMemo = new Map<string, readonly [number, number]>();

function computeInterval(shownValue: number, n: number, withNoise: boolean): readonly [number, number] {
  const x = binomialPmf(n, Math.min(1, Math.max(0, shownValue)));
  const y = new Float64Array(n + 1);
  if (withNoise) {
    for (let k = 0; k <= n; k += 1) {
      const px = x[k]!;
      // Terms this small move no 2.5% quantile.
      if (px < 1e-18) continue;
      NOISE_PMF.forEach((pz, i) => {
        const sum = Math.min(n, Math.max(0, k + i - NOISE_OFFSET));
        y[sum]! += px * pz;
      });
    }
  } else {
    y.set(x);
  }
  let lower = n;
  let upper = n;
  let cumulative = 0;
  let foundLower = false;
  for (let k = 0; k <= n; k += 1) {
    cumulative += y[k]!;
    if (!foundLower && cumulative >= TAIL - 1e-12) {
      lower = k;
      foundLower = true;
    }
    if (cumulative >= 1 - TAIL - 1e-12) {
      upper = k;
      break;
    }
  }
  return [Math.min(lower / n, shownValue), Math.max(upper / n, shownValue)];
}
