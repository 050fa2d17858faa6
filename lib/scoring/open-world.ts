import { norm, tokensOfNormalized } from "./normalize";

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
};

export function prepareOpenGold(name: string, aliases: readonly string[]): PreparedOpenGold {
  const normalizedName = norm(name);
  return {
    name: normalizedName,
    aliases: new Set(aliases.map(norm)),
    nameTokens: tokensOfNormalized(normalizedName),
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
  // A valid KB has no empty names (section 1); the guard keeps an empty gold
  // name from "containing" every prediction.
  if (gold.name.length > 0 && (gold.name.includes(p) || p.includes(gold.name))) {
    return 3;
  }
  if (meetsJaccard(tokensOfNormalized(p), gold.nameTokens)) {
    return 4;
  }
  return null;
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

/** Convenience for one-off checks; scoring prepares each gold entity once. */
export function tierOf(prediction: string, goldName: string, goldAliases: readonly string[]): Tier | null {
  return openWorldTier(prediction, prepareOpenGold(goldName, goldAliases));
}
