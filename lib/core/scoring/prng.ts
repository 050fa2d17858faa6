/**
 * The seeded pseudo-random generator of the bootstrap (protocol section 9).
 *
 * xoshiro128** 1.0 (Blackman & Vigna, https://prng.di.unimi.it/xoshiro128starstar.c):
 * 128 bits of state, period 2^128 - 1, 32-bit outputs. Its state is filled
 * from the seed with SplitMix64 (https://prng.di.unimi.it/splitmix64.c), as its
 * authors recommend: the seed is taken as an unsigned 64-bit integer, the first
 * two SplitMix64 outputs x0, x1 give s0 = low32(x0), s1 = high32(x0),
 * s2 = low32(x1), s3 = high32(x1). docs/scoring.md spells this out so anyone
 * can reproduce an interval.
 */

const UINT64_MASK = (1n << 64n) - 1n;
const UINT32_MASK = 0xffffffffn;
const TWO_TO_MINUS_32 = 2 ** -32;

/** SplitMix64 as a generator of 64-bit outputs (BigInt; only used for seeding). */
export function* splitMix64(seed: bigint): Generator<bigint, never> {
  let state = BigInt.asUintN(64, seed);
  while (true) {
    state = (state + 0x9e3779b97f4a7c15n) & UINT64_MASK;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & UINT64_MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & UINT64_MASK;
    yield z ^ (z >> 31n);
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

export class Xoshiro128StarStar {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(state: readonly [number, number, number, number]) {
    [this.s0, this.s1, this.s2, this.s3] = state.map((word) => word | 0) as [number, number, number, number];
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) {
      throw new RangeError("xoshiro128** state must not be all zero");
    }
  }

  /** The next output, an unsigned 32-bit integer. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /**
   * Fills `target` with uniform indices in 0..n-1, exactly as `target.length`
   * calls of `nextIndex(n)` would.
   */
  fillIndices(target: Uint32Array, n: number): void {
    for (let i = 0; i < target.length; i += 1) {
      target[i] = this.nextIndex(n);
    }
  }

  /**
   * Draws n indices in 0..n-1 (the same stream as n calls of `nextIndex(n)`)
   * and adds one to `counts[classOf[index]]` for each: the bootstrap's inner
   * loop, with the state in local variables because it runs millions of times
   * per score.
   */
  countDraws(n: number, classOf: Uint8Array, counts: Uint32Array): void {
    let s0 = this.s0;
    let s1 = this.s1;
    let s2 = this.s2;
    let s3 = this.s3;
    // floor(u * n / 2^32) as u * (n * 2^-32) truncated: scaling by a power of two is exact, so the index is
    // the same bit for bit (n < 2^21, the product below 2^31), without a division or a call per draw.
    const scale = n * TWO_TO_MINUS_32;
    for (let i = 0; i < n; i += 1) {
      const x = Math.imul(s1, 5);
      const output = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
      const k = classOf[(output * scale) | 0] ?? 0;
      counts[k] = (counts[k] ?? 0) + 1;
    }
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
  }

  /**
   * A uniform index in 0..n-1: floor(u * n / 2^32) for the next output u
   * (exact in doubles for n < 2^21; the bias is below n / 2^32).
   */
  nextIndex(n: number): number {
    return Math.floor((this.nextUint32() * n) / 4294967296);
  }
}

/** The bootstrap generator for a seed (a non-negative safe integer). */
export function createPrng(seed: number): Xoshiro128StarStar {
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new RangeError(`seed must be a non-negative integer, got ${seed}`);
  }
  const outputs = splitMix64(BigInt(seed));
  const x0 = outputs.next().value;
  const x1 = outputs.next().value;
  return new Xoshiro128StarStar([
    Number(x0 & UINT32_MASK),
    Number(x0 >> 32n),
    Number(x1 & UINT32_MASK),
    Number(x1 >> 32n),
  ]);
}
