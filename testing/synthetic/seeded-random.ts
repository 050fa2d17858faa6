/**
 * A small seeded PRNG (mulberry32, 32-bit state) for the synthetic generators:
 * the same seed always gives the same release and the same predictions. Not
 * for anything security-related.
 */

export type SeededRandom = {
  /** Uniform in [0, 1). */
  next: () => number;
  /** Uniform integer in [0, n). */
  int: (n: number) => number;
  /** True with probability p. */
  chance: (p: number) => boolean;
  /** A uniformly chosen element of a non-empty array. */
  pick: <T>(items: readonly T[]) => T;
  /** A new array with the items in random order (Fisher-Yates). */
  shuffle: <T>(items: readonly T[]) => T[];
};

export function createSeededRandom(seed: number): SeededRandom {
  let state = Math.trunc(seed) >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) {
        throw new Error("pick from an empty array");
      }
      return items[int(items.length)] as T;
    },
    shuffle: <T>(items: readonly T[]): T[] => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i -= 1) {
        const j = int(i + 1);
        const a = out[i] as T;
        out[i] = out[j] as T;
        out[j] = a;
      }
      return out;
    },
  };
}

/**
 * Splits `total` into integer parts proportional to `weights` (largest
 * remainder method; ties go to the earlier weight). The parts sum to `total`.
 */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((acc, w) => acc + w, 0);
  if (sum <= 0) {
    throw new Error("apportion needs a positive total weight");
  }
  const exact = weights.map((w) => (total * w) / sum);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((acc, p) => acc + p, 0);
  const order = exact.map((value, index) => ({ index, remainder: value - Math.floor(value) }));
  order.sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of order) {
    if (left <= 0) {
      break;
    }
    parts[index] = (parts[index] ?? 0) + 1;
    left -= 1;
  }
  return parts;
}
