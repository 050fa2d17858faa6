import { describe, expect, it } from "vitest";
import { createPrng, splitMix64, Xoshiro128StarStar } from "./prng";

describe("SplitMix64 (seeding)", () => {
  it("matches the reference outputs for seed 0", () => {
    // The well-known first outputs of splitmix64.c with x = 0.
    const outputs = splitMix64(0n);
    expect(outputs.next().value).toBe(0xe220a8397b1dcdafn);
    expect(outputs.next().value).toBe(0x6e789e6aa1b965f4n);
    expect(outputs.next().value).toBe(0x06c45d188009454fn);
  });
});

describe("xoshiro128**", () => {
  it("matches outputs worked by hand from state [1, 2, 3, 4]", () => {
    const rng = new Xoshiro128StarStar([1, 2, 3, 4]);
    // out = rotl(s1 * 5, 7) * 9: s1 = 2 -> rotl(10, 7) = 1280 -> 11520.
    expect(rng.nextUint32()).toBe(11520);
    // state becomes [7, 0, 1026, 12288]; s1 = 0 -> 0.
    expect(rng.nextUint32()).toBe(0);
    // state becomes [12295, 1029, 1029, 25165824]; 1029 * 5 = 5145, * 128 = 658560, * 9 = 5927040.
    expect(rng.nextUint32()).toBe(5927040);
    // state becomes [25179138, 12295, 540162, 2107404]; 12295 * 5 * 128 * 9 = 70819200.
    expect(rng.nextUint32()).toBe(70819200);
  });

  it("maps outputs to indices by floor(u * n / 2^32)", () => {
    const rng = new Xoshiro128StarStar([1, 2, 3, 4]);
    // floor(11520 * 1000 / 2^32) = floor(0.00268...) = 0
    expect(rng.nextIndex(1000)).toBe(0);
  });

  it("fills indices exactly as repeated nextIndex calls", () => {
    const one = createPrng(42);
    const many = createPrng(42);
    const filled = new Uint32Array(1000);
    one.fillIndices(filled, 4633);
    const drawn = Array.from({ length: 1000 }, () => many.nextIndex(4633));
    expect([...filled]).toEqual(drawn);
    // and both streams continue in step
    expect(one.nextUint32()).toBe(many.nextUint32());
  });

  it("counts draws by class exactly as counting nextIndex calls", () => {
    const classOf = Uint8Array.from({ length: 50 }, (_, i) => i % 3);
    const fused = createPrng(7);
    const counts = new Uint32Array(3);
    fused.countDraws(50, classOf, counts);
    const plain = createPrng(7);
    const expected = new Uint32Array(3);
    for (let i = 0; i < 50; i += 1) {
      const k = classOf[plain.nextIndex(50)] ?? 0;
      expected[k] = (expected[k] ?? 0) + 1;
    }
    expect([...counts]).toEqual([...expected]);
    expect(counts[0]! + counts[1]! + counts[2]!).toBe(50);
    expect(fused.nextUint32()).toBe(plain.nextUint32());
  });

  it("refuses an all-zero state", () => {
    expect(() => new Xoshiro128StarStar([0, 0, 0, 0])).toThrow(RangeError);
  });
});

describe("createPrng", () => {
  it("seeds xoshiro128** from SplitMix64: seed 42 gives state from 0xbdd732262feb6e95, 0x28efe333b266f103", () => {
    const fromSeed = createPrng(42);
    const byHand = new Xoshiro128StarStar([0x2feb6e95, 0xbdd73226, 0xb266f103, 0x28efe333]);
    for (let i = 0; i < 5; i += 1) {
      expect(fromSeed.nextUint32()).toBe(byHand.nextUint32());
    }
  });

  it("is deterministic per seed and differs between seeds", () => {
    const draw = (seed: number) => {
      const rng = createPrng(seed);
      return Array.from({ length: 8 }, () => rng.nextUint32());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it("rejects seeds that are not non-negative safe integers", () => {
    expect(() => createPrng(-1)).toThrow(RangeError);
    expect(() => createPrng(1.5)).toThrow(RangeError);
  });
});
