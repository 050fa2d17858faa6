import type { Tier } from "./open-world";
import type { Track } from "./tracks";

/**
 * Per-sample outcomes in a compact form: one byte per gold sample, in gold
 * order. The server stores these bytes with a score and compares submissions
 * later without re-reading any file.
 *
 * - open-world: the tier, 0 (no match) or 1..4 (section 6).
 * - closed-world: bits 0-6 hold the gold rank, 0 (not ranked) or 1..100
 *   (section 7); bit 7 (0x80) is set when the sample is an alias_hit@1.
 */
export type SampleOutcomes = {
  track: Track;
  codes: Uint8Array;
};

const NO_TIER = 0;
const ALIAS_HIT_AT_1_BIT = 0x80;
const RANK_MASK = 0x7f;

export function encodeTier(tier: Tier | null): number {
  return tier ?? NO_TIER;
}

export function encodeClosedOutcome(rank: number, isAliasHitAt1: boolean): number {
  if (!Number.isInteger(rank) || rank < 0 || rank > RANK_MASK) {
    throw new RangeError(`rank ${rank} does not fit an outcome code (0..${RANK_MASK})`);
  }
  return rank | (isAliasHitAt1 ? ALIAS_HIT_AT_1_BIT : 0);
}

/** Open-world: the tier of a code, or null for no match. */
export function tierOfCode(code: number): Tier | null {
  return code >= 1 && code <= 4 ? (code as Tier) : null;
}

/** Closed-world: the gold rank of a code, 0 when not ranked. */
export function rankOfCode(code: number): number {
  return code & RANK_MASK;
}

/** Closed-world: whether a code is an alias_hit@1. */
export function isAliasHitAt1Code(code: number): boolean {
  return (code & ALIAS_HIT_AT_1_BIT) !== 0;
}
