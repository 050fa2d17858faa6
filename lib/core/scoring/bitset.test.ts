import { describe, expect, it } from "vitest";
import { countDiscordant } from "./compare";
import { countOnes, countOnlyFirst, discordantCounts, packBits, popcount32 } from "./bitset";

describe("bitset", () => {
  it("counts bits of a word", () => {
    expect(popcount32(0)).toBe(0);
    expect(popcount32(0xffffffff)).toBe(32);
    expect(popcount32(0x80000001)).toBe(2);
    expect(popcount32(0b1011)).toBe(3);
  });

  it("gives b and c of two short vectors by hand", () => {
    // a right on samples 0, 1, 3; b right on 1, 2: b = 2 (0 and 3), c = 1 (2).
    expect(discordantCounts(packBits([1, 1, 0, 1, 0]), packBits([0, 1, 1, 0, 0]))).toEqual({ b: 2, c: 1 });
    expect(countOnes(packBits([1, 1, 0, 1, 0]))).toBe(3);
  });

  it("agrees with a plain loop on random vectors of every length near a word boundary", () => {
    let state = 12345;
    const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 16) & 1;
    for (const length of [1, 31, 32, 33, 63, 64, 65, 4633]) {
      for (let trial = 0; trial < 5; trial += 1) {
        const a = Uint8Array.from({ length }, next);
        const b = Uint8Array.from({ length }, next);
        expect(discordantCounts(packBits(a), packBits(b))).toEqual(countDiscordant(a, b));
        expect(countOnlyFirst(packBits(a).words, packBits(b).words)).toBe(countDiscordant(a, b).b);
      }
    }
  });
});
