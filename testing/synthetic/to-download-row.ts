import type { Entity, EntityType, Sample } from "@/lib/core/dataset/release-schema";

/** What participants download for train and dev: the sample with the gold entity joined in. */
export type GoldSample = Sample & { name: string; type: EntityType; aliases: string[] };
/** What participants download for the test split: no gold (protocol section 3). */
export type PublicTestSample = Pick<Sample, "id" | "collection" | "implicit_text">;

/**
 * The rows participants download (protocol section 3). Train and dev carry
 * the gold entity joined in; test carries no gold at all, so a public test
 * row is built field by field and never by copying a sample.
 */

export function toGoldSample(sample: Sample, entity: Entity): GoldSample {
  if (sample.qid !== entity.qid) {
    throw new Error(`sample ${sample.id} has qid ${sample.qid}, not ${entity.qid}`);
  }
  return {
    id: sample.id,
    qid: sample.qid,
    name: entity.name,
    type: entity.type,
    aliases: [...entity.aliases],
    collection: sample.collection,
    implicit_text: sample.implicit_text,
    explicit_text: sample.explicit_text,
  };
}

export function toPublicTestSample(sample: Sample): PublicTestSample {
  return { id: sample.id, collection: sample.collection, implicit_text: sample.implicit_text };
}
