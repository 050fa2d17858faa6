import type { GoldRecord } from "./gold";
import { encodeTier } from "./outcome-codes";
import { openWorldTier, prepareOpenGold, type PreparedOpenGold } from "./open-world";

/**
 * Open-world outcomes (section 6): the tier of every gold sample's prediction,
 * one code per sample in gold order (0 = no match, 1..4 = tier).
 */
export function scoreOpenWorld(predictions: ReadonlyMap<string, string>, gold: readonly GoldRecord[]): Uint8Array {
  const codes = new Uint8Array(gold.length);
  // Entities recur across samples; normalise each one once.
  const prepared = new Map<string, PreparedOpenGold>();
  gold.forEach((sample, i) => {
    const prediction = predictions.get(sample.id);
    if (prediction === undefined) {
      // Validation guarantees every sample is predicted; this is a caller bug.
      throw new Error(`no prediction for sample "${sample.id}"`);
    }
    let entity = prepared.get(sample.qid);
    if (entity === undefined) {
      entity = prepareOpenGold(sample.name, sample.aliases);
      prepared.set(sample.qid, entity);
    }
    codes[i] = encodeTier(openWorldTier(prediction, entity));
  });
  return codes;
}
