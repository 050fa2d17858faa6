import { countOnes, countOnlyFirst, type Bitset } from "../scoring/bitset";
import { createExactMcNemar } from "../scoring/exact-binomial";
import { holmAdjust } from "../scoring/holm";

/**
 * Ranks decided by paired tests (protocol section 13). Every system of a view
 * has one binary per-sample outcome on the view's metric. Each pair is
 * compared by McNemar's exact test (section 9, p_exact); each system's family
 * is its comparisons with every other system of the view, Holm-adjusted
 * within that family. B is significantly better than A when the adjusted p of
 * the pair in A's family is below 0.05 and B is right on more samples. A's
 * rank interval is [1 + the number of systems significantly better than it,
 * N - the number of systems it is significantly better than]; `verdict` is the
 * one reading of a pair that every page prints.
 *
 * Pure and allocation-light: N systems cost N(N-1)/2 popcount passes over
 * ceil(n / 32) words, then one sort of N-1 p-values per system.
 */

export const RANK_SIGNIFICANCE_LEVEL = 0.05;

export type RankedSystem = { id: string; bits: Bitset };

type PairTest = {
  /** Samples the first system gets right and the second wrong. */
  b: number;
  /** Samples the second gets right and the first wrong. */
  c: number;
  /** McNemar's exact p (two-sided binomial, section 9). */
  p: number;
};

/**
 * The verdict on a pair (i, j) from i's side: "better" when i is
 * significantly better than j, "worse" when j is significantly better than i.
 * `pHolm` is the adjusted p of the test that decides, in the family of the one
 * behind (j's when i is ahead, i's otherwise; 1 for an exact tie).
 */
type PairVerdict = { verdict: "better" | "worse" | "no significant difference"; pHolm: number };

export type PairedRanks = {
  ids: readonly string[];
  /** Samples right, per system (on the public leaderboard: section 12's perturbed count), the point estimate's numerator. */
  right: Float64Array;
  n: number;
  /** 1 + the number of systems significantly better, per system: the low end of the rank interval. */
  ranks: Int32Array;
  /** N - the number of systems it is significantly better than, per system: the high end of the rank interval. */
  rankHi: Int32Array;
  /** The test of systems i and j (b counts i right and j wrong). */
  pair(i: number, j: number): PairTest;
  /** The Holm-adjusted p of the pair (i, j) in i's family. */
  adjustedInFamilyOf(i: number, j: number): number;
  /** Whether j is significantly better than i (the test that counts j in i's rank). */
  isBetter(j: number, i: number): boolean;
  /** The systems significantly better than i, most significant first. */
  betterThan(i: number): { index: number; pHolm: number }[];
  /** The systems i is significantly better than, most significant first. */
  worseThan(i: number): { index: number; pHolm: number }[];
  /** The section 13 verdict of i against j. */
  verdict(i: number, j: number): PairVerdict;
};

/**
 * Ranks from the exact outcomes: each system's right answers and each pair's discordant counts by popcount.
 * @internal the unit tests and bench:ranks; the platform ranks from section 12's perturbed counts (rankFromPairs).
 */
export function computePairedRanks(systems: readonly RankedSystem[]): PairedRanks {
  const n = systems[0]?.bits.length ?? 0;
  for (const system of systems) {
    if (system.bits.length !== n) throw new Error(`cannot rank outcomes of ${system.bits.length} and ${n} samples together`);
  }
  const right = Int32Array.from(systems, (system) => countOnes(system.bits));
  const onlyFirst = bitsetPairCounts(systems, right);
  return rankFromPairs({ ids: systems.map((system) => system.id), n, right: Float64Array.from(right), onlyFirst });
}

/**
 * The input of a ranking whose numbers are given: each system's point-estimate
 * numerator and each ordered pair's count of samples only the first gets right
 * (`onlyFirst[i * N + j]` is b of (i, j), `onlyFirst[j * N + i]` its c). On the
 * public leaderboard these are section 12's perturbed `k'` and `b'`, `c'`.
 */
export type PairCountsInput = { ids: readonly string[]; n: number; right: Float64Array; onlyFirst: Int32Array };

export function rankFromPairs(input: PairCountsInput): PairedRanks {
  const { right, onlyFirst, n } = input;
  const count = input.ids.length;
  const pValues = pairPValues(onlyFirst, count, n);
  const adjusted = holmPerSystem(pValues, count);

  // j is ahead of i on the point estimate and on the pair's own counts (b of (j, i) above c): a verdict never contradicts the shown numbers.
  const isAhead = (j: number, i: number): boolean => right[j]! > right[i]! && onlyFirst[j * count + i]! > onlyFirst[i * count + j]!;
  const isBetter = (j: number, i: number): boolean => i !== j && isAhead(j, i) && adjusted[i * count + j]! < RANK_SIGNIFICANCE_LEVEL;

  const { ranks, rankHi } = rankBounds(count, isBetter);
  const significantlyOver = (i: number, isOver: (j: number) => boolean, familyOf: (j: number) => number) => {
    const out: { index: number; pHolm: number }[] = [];
    for (let j = 0; j < count; j += 1) if (isOver(j)) out.push({ index: j, pHolm: familyOf(j) });
    return out.sort((x, y) => x.pHolm - y.pHolm || x.index - y.index);
  };

  return {
    ids: input.ids,
    right,
    n,
    ranks,
    rankHi,
    pair: (i, j) => ({ b: onlyFirst[i * count + j]!, c: onlyFirst[j * count + i]!, p: pValues[i * count + j]! }),
    adjustedInFamilyOf: (i, j) => adjusted[i * count + j]!,
    isBetter,
    betterThan: (i) => significantlyOver(i, (j) => isBetter(j, i), (j) => adjusted[i * count + j]!),
    worseThan: (i) => significantlyOver(i, (j) => isBetter(i, j), (j) => adjusted[j * count + i]!),
    verdict: (i, j) => {
      if (i === j || right[i] === right[j]) return { verdict: "no significant difference", pHolm: i === j ? 1 : Math.max(adjusted[i * count + j]!, adjusted[j * count + i]!) };
      const isIAhead = right[i]! > right[j]!;
      const pHolm = isIAhead ? adjusted[j * count + i]! : adjusted[i * count + j]!;
      if (isBetter(i, j)) return { verdict: "better", pHolm };
      if (isBetter(j, i)) return { verdict: "worse", pHolm };
      return { verdict: "no significant difference", pHolm };
    },
  };
}

/** Every pair's discordant counts (b in [i, j], c in [j, i]), one popcount per pair. */
function bitsetPairCounts(systems: readonly RankedSystem[], right: Int32Array): Int32Array {
  const count = systems.length;
  const onlyFirst = new Int32Array(count * count);
  for (let i = 0; i < count; i += 1) {
    const x = systems[i]!.bits.words;
    for (let j = i + 1; j < count; j += 1) {
      // One count per pair: b = |X and not Y|; then |X and Y| = right_i - b and c = right_j - |X and Y|.
      const b = countOnlyFirst(x, systems[j]!.bits.words);
      onlyFirst[i * count + j] = b;
      onlyFirst[j * count + i] = right[j]! - (right[i]! - b);
    }
  }
  return onlyFirst;
}

/** Every pair's exact McNemar p (section 9) from its discordant counts. */
function pairPValues(onlyFirst: Int32Array, count: number, n: number): Float64Array {
  const pValues = new Float64Array(count * count).fill(1);
  const pOfCounts = new Map<number, number>();
  // b' + c' may exceed n by the noise (section 12): the table covers it.
  let most = n;
  for (const value of onlyFirst) most = Math.max(most, value);
  const exactP = createExactMcNemar(2 * most + 2);
  for (let i = 0; i < count; i += 1) {
    for (let j = i + 1; j < count; j += 1) {
      const b = onlyFirst[i * count + j]!;
      const c = onlyFirst[j * count + i]!;
      // Many pairs share (b, c): the p-value depends on nothing else.
      const key = b * 65536 + c;
      let p = pOfCounts.get(key);
      if (p === undefined) {
        p = exactP(b, c);
        pOfCounts.set(key, p);
      }
      pValues[i * count + j] = p;
      pValues[j * count + i] = p;
    }
  }
  return pValues;
}

/** Holm-adjusted p-values, each system's tests against all the others as one family. */
function holmPerSystem(pValues: Float64Array, count: number): Float64Array {
  const adjusted = new Float64Array(count * count).fill(1);
  for (let i = 0; i < count; i += 1) {
    const others: number[] = [];
    for (let j = 0; j < count; j += 1) if (j !== i) others.push(j);
    const family = holmAdjust(others.map((j) => pValues[i * count + j]!));
    others.forEach((j, k) => {
      adjusted[i * count + j] = family[k] ?? 1;
    });
  }
  return adjusted;
}

/** Section 13's rank (1 + the systems significantly better) and its upper bound (count - the systems significantly worse). */
function rankBounds(count: number, isBetter: (j: number, i: number) => boolean): { ranks: Int32Array; rankHi: Int32Array } {
  const ranks = new Int32Array(count);
  const rankHi = new Int32Array(count);
  for (let i = 0; i < count; i += 1) {
    let better = 0;
    let worse = 0;
    for (let j = 0; j < count; j += 1) {
      if (isBetter(j, i)) better += 1;
      if (isBetter(i, j)) worse += 1;
    }
    ranks[i] = 1 + better;
    rankHi[i] = count - worse;
  }
  return { ranks, rankHi };
}
