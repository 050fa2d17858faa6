import { countOnes, countOnlyFirst, type Bitset } from "./bitset";
import { chiSquareUpperTail1 } from "./erfc";
import { holmAdjust } from "./holm";
import { mcnemarChi2 } from "./mcnemar";

/**
 * Ranks decided by paired tests (protocol section 13). Every system of a view
 * has one binary per-sample outcome on the view's metric. Each pair is
 * compared by McNemar's test with continuity correction (section 9); each
 * system's family is its comparisons with every other system of the view,
 * Holm-adjusted within that family. B is significantly better than A when the
 * adjusted p of the pair in A's family is below 0.05 and B is right on more
 * samples. A's rank is 1 + the number of systems significantly better than it.
 *
 * Pure and allocation-light: N systems cost N(N-1)/2 popcount passes over
 * ceil(n / 32) words, then one sort of N-1 p-values per system.
 */

export const RANK_SIGNIFICANCE_LEVEL = 0.05;

export type RankedSystem = { id: string; bits: Bitset };

export type PairTest = {
  /** Samples the first system gets right and the second wrong. */
  b: number;
  /** Samples the second gets right and the first wrong. */
  c: number;
  /** McNemar p (chi-square upper tail, 1 degree of freedom). */
  p: number;
};

export type PairedRanks = {
  ids: readonly string[];
  /** Samples right, per system. */
  right: Int32Array;
  n: number;
  /** 1 + the number of systems significantly better, per system. */
  ranks: Int32Array;
  /** The test of systems i and j (b counts i right and j wrong). */
  pair(i: number, j: number): PairTest;
  /** The Holm-adjusted p of the pair (i, j) in i's family. */
  adjustedInFamilyOf(i: number, j: number): number;
  /** Whether j is significantly better than i (the test that counts j in i's rank). */
  isBetter(j: number, i: number): boolean;
  /** The systems significantly better than i, most significant first. */
  betterThan(i: number): { index: number; pHolm: number }[];
};

export function computePairedRanks(systems: readonly RankedSystem[]): PairedRanks {
  const count = systems.length;
  const n = systems[0]?.bits.length ?? 0;
  const right = Int32Array.from(systems, (system) => countOnes(system.bits));
  const onlyFirst = new Int32Array(count * count);
  const pValues = new Float64Array(count * count).fill(1);
  const pOfCounts = new Map<number, number>();
  for (const system of systems) {
    if (system.bits.length !== n) throw new Error(`cannot rank outcomes of ${system.bits.length} and ${n} samples together`);
  }
  for (let i = 0; i < count; i += 1) {
    const x = systems[i]!.bits.words;
    for (let j = i + 1; j < count; j += 1) {
      const y = systems[j]!.bits.words;
      // One count per pair: b = |X and not Y|; then |X and Y| = right_i - b and c = right_j - |X and Y|.
      const b = countOnlyFirst(x, y);
      const c = right[j]! - (right[i]! - b);
      onlyFirst[i * count + j] = b;
      onlyFirst[j * count + i] = c;
      // Many pairs share (b, c): the p-value depends on nothing else.
      const key = b * 65536 + c;
      let p = pOfCounts.get(key);
      if (p === undefined) {
        p = chiSquareUpperTail1(mcnemarChi2(b, c));
        pOfCounts.set(key, p);
      }
      pValues[i * count + j] = p;
      pValues[j * count + i] = p;
    }
  }

  const adjusted = new Float64Array(count * count).fill(1);
  for (let i = 0; i < count; i += 1) {
    const others: number[] = [];
    for (let j = 0; j < count; j += 1) if (j !== i) others.push(j);
    const family = holmAdjust(others.map((j) => pValues[i * count + j]!));
    others.forEach((j, k) => {
      adjusted[i * count + j] = family[k] ?? 1;
    });
  }

  const isBetter = (j: number, i: number): boolean =>
    i !== j && right[j]! > right[i]! && adjusted[i * count + j]! < RANK_SIGNIFICANCE_LEVEL;

  const ranks = new Int32Array(count);
  for (let i = 0; i < count; i += 1) {
    let better = 0;
    for (let j = 0; j < count; j += 1) if (isBetter(j, i)) better += 1;
    ranks[i] = 1 + better;
  }

  return {
    ids: systems.map((system) => system.id),
    right,
    n,
    ranks,
    pair: (i, j) => ({ b: onlyFirst[i * count + j]!, c: onlyFirst[j * count + i]!, p: pValues[i * count + j]! }),
    adjustedInFamilyOf: (i, j) => adjusted[i * count + j]!,
    isBetter,
    betterThan: (i) => {
      const out: { index: number; pHolm: number }[] = [];
      for (let j = 0; j < count; j += 1) if (isBetter(j, i)) out.push({ index: j, pHolm: adjusted[i * count + j]! });
      return out.sort((x, y) => x.pHolm - y.pHolm || x.index - y.index);
    },
  };
}
