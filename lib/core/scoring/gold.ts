import type { EntityType } from "@/lib/core/dataset/release-schema";

/**
 * The gold side of scoring: the samples of one split with their entity joined
 * in from the KB (protocol section 2), and the KB itself as an index by QID.
 */

/** One KB entity as scoring needs it. */
type KbEntry = {
  name: string;
  type: EntityType;
  aliases: readonly string[];
};

/** The KB by QID. Closed-world validation checks QIDs against its keys. */
export type KbIndex = ReadonlyMap<string, KbEntry>;

/** One gold sample: the sample's id, QID and collection, the entity's name, type and aliases. */
export type GoldRecord = {
  id: string;
  qid: string;
  type: EntityType;
  collection: string;
  name: string;
  aliases: readonly string[];
};

export function buildKbIndex(
  entities: Iterable<{ qid: string; name: string; type: EntityType; aliases: readonly string[] }>,
): Map<string, KbEntry> {
  const index = new Map<string, KbEntry>();
  for (const entity of entities) {
    index.set(entity.qid, { name: entity.name, type: entity.type, aliases: entity.aliases });
  }
  return index;
}

/** Joins the KB into the samples of a split, keeping the samples' order (the order of stored outcomes). */
export function buildGold(
  samples: Iterable<{ id: string; qid: string; collection: string }>,
  kb: KbIndex,
): GoldRecord[] {
  const gold: GoldRecord[] = [];
  for (const sample of samples) {
    const entity = kb.get(sample.qid);
    if (entity === undefined) {
      throw new Error(`sample ${sample.id}: QID ${sample.qid} is not in the KB`);
    }
    gold.push({
      id: sample.id,
      qid: sample.qid,
      type: entity.type,
      collection: sample.collection,
      name: entity.name,
      aliases: entity.aliases,
    });
  }
  return gold;
}
