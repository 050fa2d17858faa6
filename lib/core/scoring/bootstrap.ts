import type { MetricTable } from "./metric-values";
import { createPrng } from "./prng";

/**
 * Percentile bootstrap confidence intervals (protocol section 9).
 *
 * One group of n samples (all of a split, or all of one entity type) is
 * resampled with replacement `resamples` times; every resample draws n indices
 * from one xoshiro128** stream seeded with `seed` (see prng.ts), so the same
 * codes and seed always give the same interval. All metrics of a group are
 * computed on the same resamples. A resample only needs how many drawn samples
 * have each outcome code, so the inner loop is one counter increment per draw.
 */

export type Interval = [number, number];

type BootstrapOptions = {
  seed: number;
  resamples: number;
  /** Central coverage of the interval, 0.95 by default. */
  level?: number;
};

/**
 * Percentile of sorted values by linear interpolation between closest ranks
 * (numpy's default "linear" method, R's type 7): h = (N - 1) q,
 * x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]).
 */
export function percentileOfSorted(sorted: Float64Array, q: number): number {
  const count = sorted.length;
  if (count === 0) {
    throw new RangeError("percentile of no values");
  }
  const h = (count - 1) * q;
  const below = Math.floor(h);
  const lower = sorted[below] ?? Number.NaN;
  const upper = sorted[Math.min(below + 1, count - 1)] ?? Number.NaN;
  return lower + (h - below) * (upper - lower);
}

/** Maps each code to a dense index 0..d-1 over the d codes present. */
function denseCodesOf(codes: Uint8Array): { dense: Uint8Array; present: number[] } {
  const indexOfCode = new Int16Array(256).fill(-1);
  const present: number[] = [];
  const dense = new Uint8Array(codes.length);
  for (let i = 0; i < codes.length; i += 1) {
    const code = codes[i] ?? 0;
    let index = indexOfCode[code] ?? -1;
    if (index < 0) {
      index = present.length;
      indexOfCode[code] = index;
      present.push(code);
    }
    dense[i] = index;
  }
  return { dense, present };
}

type MetricTerms = { codes: Int32Array; values: Float64Array };
const NO_TERMS: MetricTerms = { codes: new Int32Array(0), values: new Float64Array(0) };

/**
 * The dense codes whose value is not zero, in ascending order, with their
 * values. A resample's metric is the sum of count x value over these: the
 * zero terms left out add +0 and change no bit of the sum, and most codes are
 * zero for most metrics (hit@1 is one rank of a hundred).
 */
function nonZeroTerms(present: readonly number[], table: MetricTable): MetricTerms {
  const codes: number[] = [];
  const values: number[] = [];
  present.forEach((code, dense) => {
    const value = table.values[code] ?? 0;
    if (value !== 0) {
      codes.push(dense);
      values.push(value);
    }
  });
  return { codes: Int32Array.from(codes), values: Float64Array.from(values) };
}

/**
 * The bootstrap interval of every metric in `tables` (in the same order) for
 * the group whose outcome codes are `codes`.
 */
export function bootstrapIntervals(
  codes: Uint8Array,
  tables: readonly MetricTable[],
  options: BootstrapOptions,
): Interval[] {
  const n = codes.length;
  const { resamples } = options;
  const level = options.level ?? 0.95;
  if (n === 0) {
    throw new RangeError("cannot bootstrap an empty group");
  }
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  }
  const { dense, present } = denseCodesOf(codes);
  const termsByMetric = tables.map((table) => nonZeroTerms(present, table));
  const stats = tables.map(() => new Float64Array(resamples));
  const counts = new Uint32Array(present.length);
  const rng = createPrng(options.seed);

  for (let r = 0; r < resamples; r += 1) {
    counts.fill(0);
    rng.countDraws(n, dense, counts);
    for (let m = 0; m < termsByMetric.length; m += 1) {
      const terms = termsByMetric[m] ?? NO_TERMS;
      let sum = 0;
      for (let j = 0; j < terms.codes.length; j += 1) {
        sum += (counts[terms.codes[j] ?? 0] ?? 0) * (terms.values[j] ?? 0);
      }
      const column = stats[m];
      if (column !== undefined) {
        column[r] = sum / n;
      }
    }
  }

  const tail = (1 - level) / 2;
  return stats.map((column) => {
    column.sort();
    return [percentileOfSorted(column, tail), percentileOfSorted(column, 1 - tail)];
  });
}

/**
 * Groups smaller than this get their percentile-bootstrap interval labelled
 * unreliable on the pages (the method stays the protocol's): with a handful
 * of samples the resamples take few distinct values, and at n = 2 the
 * interval can have zero width.
 */
export const UNRELIABLE_INTERVAL_N = 30;
