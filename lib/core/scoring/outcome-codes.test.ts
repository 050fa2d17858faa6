import { describe, expect, it } from "vitest";
import { encodeClosedOutcome, encodeTier, isAliasHitAt1Code, rankOfCode, tierOfCode } from "./outcome-codes";

describe("outcome codes", () => {
  it("stores open-world tiers as 0..4", () => {
    expect(encodeTier(null)).toBe(0);
    expect(encodeTier(3)).toBe(3);
    expect(tierOfCode(0)).toBeNull();
    expect(tierOfCode(4)).toBe(4);
  });

  it("packs the closed-world rank in bits 0-6 and alias_hit@1 in bit 7", () => {
    expect(encodeClosedOutcome(100, true)).toBe(0x80 + 100); // 228
    expect(encodeClosedOutcome(0, true)).toBe(128);
    expect(encodeClosedOutcome(7, false)).toBe(7);
    expect(rankOfCode(228)).toBe(100);
    expect(isAliasHitAt1Code(228)).toBe(true);
    expect(rankOfCode(7)).toBe(7);
    expect(isAliasHitAt1Code(7)).toBe(false);
  });

  it("refuses ranks that do not fit", () => {
    expect(() => encodeClosedOutcome(128, false)).toThrow(RangeError);
    expect(() => encodeClosedOutcome(-1, false)).toThrow(RangeError);
  });
});
