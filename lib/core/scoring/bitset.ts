/**
 * Binary per-sample outcomes packed 32 to a word, so the discordant counts of
 * two systems (section 9's b and c) are popcounts of `a & ~b` and `~a & b`.
 * Bits past the last sample are 0 in every vector, so they never count.
 */

export type Bitset = { length: number; words: Uint32Array };

export function packBits(values: ArrayLike<number>): Bitset {
  const words = new Uint32Array(Math.ceil(values.length / 32));
  for (let i = 0; i < values.length; i += 1) {
    if (values[i]) words[i >>> 5]! |= 1 << (i & 31);
  }
  return { length: values.length, words };
}

/** Set bits of a 32-bit word (SWAR popcount). */
export function popcount32(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Set bits of every 16-bit value: two table reads count a word, faster than the SWAR count in the pair loop. */
const ONES_OF_16 = (() => {
  const table = new Uint8Array(65536);
  for (let value = 1; value < table.length; value += 1) table[value] = table[value >>> 1]! + (value & 1);
  return table;
})();

/** Samples set in `a` and not in `b` (a small function of its own, so V8 optimises the hot loop). */
export function countOnlyFirst(a: Uint32Array, b: Uint32Array): number {
  let count = 0;
  for (let i = 0; i < a.length; i += 1) {
    const word = a[i]! & ~b[i]!;
    count += ONES_OF_16[word & 0xffff]! + ONES_OF_16[word >>> 16]!;
  }
  return count;
}

export function countOnes(bits: Bitset): number {
  let total = 0;
  for (const word of bits.words) total += popcount32(word);
  return total;
}

/** b = samples right in `a` and wrong in `b`, c = the reverse. @internal exported for its tests. */
export function discordantCounts(a: Bitset, b: Bitset): { b: number; c: number } {
  if (a.length !== b.length) throw new Error(`cannot compare outcomes of ${a.length} and ${b.length} samples`);
  let onlyA = 0;
  let onlyB = 0;
  const x = a.words;
  const y = b.words;
  for (let i = 0; i < x.length; i += 1) {
    const left = x[i]!;
    const right = y[i]!;
    onlyA += popcount32(left & ~right);
    onlyB += popcount32(~left & right);
  }
  return { b: onlyA, c: onlyB };
}
