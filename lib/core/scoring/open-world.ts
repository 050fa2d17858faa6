import { norm, tokenSequenceOfNormalized, tokensOfNormalized } from "./normalize";

/**
 * Open-world matching tiers (protocol section 6). A sample's tier is the
 * strictest one its prediction meets: 1 exact, 2 alias, 3 containment,
 * 4 jaccard, or null.
 */

export type Tier = 1 | 2 | 3 | 4;

/** The gold side of open-world matching, normalised once per sample. */
export type PreparedOpenGold = {
  name: string;
  aliases: ReadonlySet<string>;
  nameTokens: ReadonlySet<string>;
  /** `seq(g.name)` of section 6: the name's tokens in order, repeats kept. */
  nameSequence: readonly string[];
};

export function prepareOpenGold(name: string, aliases: readonly string[]): PreparedOpenGold {
  const normalizedName = norm(name);
  return {
    name: normalizedName,
    aliases: new Set(aliases.map(norm)),
    nameTokens: tokensOfNormalized(normalizedName),
    nameSequence: tokenSequenceOfNormalized(normalizedName),
  };
}

/** The tier of `prediction` against a prepared gold entity. */
export function openWorldTier(prediction: string, gold: PreparedOpenGold): Tier | null {
  const p = norm(prediction);
  // Section 6: an empty prediction meets no tier.
  if (p.length === 0) {
    return null;
  }
  if (p === gold.name) {
    return 1;
  }
  if (gold.aliases.has(p)) {
    return 2;
  }
  const sequence = tokenSequenceOfNormalized(p);
  if (meetsContainment(sequence, gold.nameSequence)) {
    return 3;
  }
  if (meetsJaccard(new Set(sequence), gold.nameTokens)) {
    return 4;
  }
  return null;
}

/**
 * Tier 3 (section 6, v1.1): whole-token containment. `predicted` is non-empty
 * and a contiguous run of `gold`, or `gold` is a contiguous run of `predicted`.
 * An empty gold sequence contains nothing and is contained by nothing (a valid
 * KB has no such names; the guard keeps one from matching every prediction).
 */
export function meetsContainment(predicted: readonly string[], gold: readonly string[]): boolean {
  if (predicted.length === 0 || gold.length === 0) {
    return false;
  }
  return predicted.length <= gold.length ? isContiguousRun(predicted, gold) : isContiguousRun(gold, predicted);
}

/** Whether `needle` (non-empty) occurs in `haystack` as consecutive elements. */
function isContiguousRun(needle: readonly string[], haystack: readonly string[]): boolean {
  const last = haystack.length - needle.length;
  for (let start = 0; start <= last; start += 1) {
    let matched = 0;
    while (matched < needle.length && haystack[start + matched] === needle[matched]) {
      matched += 1;
    }
    if (matched === needle.length) {
      return true;
    }
  }
  return false;
}

/** |P ∩ G| / |P ∪ G| >= 1/2, in integers so exactly one half counts; an empty union never matches. */
export function meetsJaccard(predicted: ReadonlySet<string>, gold: ReadonlySet<string>): boolean {
  let shared = 0;
  for (const token of predicted) {
    if (gold.has(token)) {
      shared += 1;
    }
  }
  const union = predicted.size + gold.size - shared;
  if (union === 0) {
    return false;
  }
  return 2 * shared >= union;
}

/** Convenience for one-off checks; scoring prepares each gold entity once. @internal exported for its tests. */
export function tierOf(prediction: string, goldName: string, goldAliases: readonly string[]): Tier | null {
  return openWorldTier(prediction, prepareOpenGold(goldName, goldAliases));
}
