import { goldRank, isAliasHitAt1, prepareClosedGold, type PreparedClosedGold } from "./closed-world";
import type { GoldRecord, KbIndex } from "./gold";
import { norm } from "./normalize";
import { encodeClosedOutcome } from "./outcome-codes";

/**
 * Closed-world outcomes (section 7): for every gold sample, in gold order, the
 * gold rank (0 = not ranked) and whether the top entity is an alias_hit@1,
 * packed into one code (see outcome-codes.ts).
 */
export function scoreClosedWorld(
  predictions: ReadonlyMap<string, readonly string[]>,
  gold: readonly GoldRecord[],
  kb: KbIndex,
): Uint8Array {
  const normalizedNames = new Map<string, string>();
  const normalizedNameOf = (qid: string): string | undefined => {
    const cached = normalizedNames.get(qid);
    if (cached !== undefined) {
      return cached;
    }
    const entity = kb.get(qid);
    if (entity === undefined) {
      return undefined;
    }
    const normalized = norm(entity.name);
    normalizedNames.set(qid, normalized);
    return normalized;
  };

  const codes = new Uint8Array(gold.length);
  // Entities recur across samples; normalise each one once.
  const prepared = new Map<string, PreparedClosedGold>();
  gold.forEach((sample, i) => {
    const ranking = predictions.get(sample.id);
    if (ranking === undefined) {
      // Validation guarantees every sample is predicted; this is a caller bug.
      throw new Error(`no ranking for sample "${sample.id}"`);
    }
    const rank = goldRank(ranking, sample.qid);
    let goldNames = prepared.get(sample.qid);
    if (goldNames === undefined) {
      goldNames = prepareClosedGold(sample.qid, sample.name, sample.aliases);
      prepared.set(sample.qid, goldNames);
    }
    codes[i] = encodeClosedOutcome(rank, isAliasHitAt1(ranking, goldNames, normalizedNameOf));
  });
  return codes;
}
