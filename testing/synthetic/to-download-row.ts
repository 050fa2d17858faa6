import type { Entity, GoldSample, PublicTestSample, Sample } from "@/lib/dataset/release-schema";

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
