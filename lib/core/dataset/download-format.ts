import type { Entity, EntityType, Sample, Split } from "@/lib/core/dataset/release-schema";

/**
 * The exact bytes of every participant download (protocol section 3). Import
 * hashes these lines and the download routes stream the same lines from the
 * database, so a download always has the same bytes, ETag and length.
 */
export const DOWNLOAD_NAMES = ["train.jsonl", "dev.jsonl", "test.jsonl", "kb.jsonl"] as const;
export type DownloadName = (typeof DOWNLOAD_NAMES)[number];

export function isDownloadName(value: string): value is DownloadName {
  return (DOWNLOAD_NAMES as readonly string[]).includes(value);
}

export function downloadSplit(name: DownloadName): Split | null {
  if (name === "kb.jsonl") return null;
  return name.replace(".jsonl", "") as Split;
}

type GoldEntityFields = { qid: string; name: string; type: EntityType; aliases: string[] };

export function formatEntityLine(entity: Entity): string {
  const line = {
    qid: entity.qid,
    name: entity.name,
    type: entity.type,
    aliases: entity.aliases,
    description: entity.description,
    description_wiki: entity.description_wiki,
  };
  return `${JSON.stringify(line)}\n`;
}

/** Train and dev: the sample with its gold entity joined in. */
export function formatGoldSampleLine(sample: Sample, entity: GoldEntityFields): string {
  const line = {
    id: sample.id,
    qid: entity.qid,
    name: entity.name,
    type: entity.type,
    aliases: entity.aliases,
    collection: sample.collection,
    implicit_text: sample.implicit_text,
    explicit_text: sample.explicit_text,
  };
  return `${JSON.stringify(line)}\n`;
}

/** Test: id, collection and the entity-elided text only. Nothing derived from the gold. */
export function formatPublicTestLine(sample: Pick<Sample, "id" | "collection" | "implicit_text">): string {
  const line = { id: sample.id, collection: sample.collection, implicit_text: sample.implicit_text };
  return `${JSON.stringify(line)}\n`;
}

export function formatSampleLine(split: Split, sample: Sample, entity: GoldEntityFields): string {
  return split === "test" ? formatPublicTestLine(sample) : formatGoldSampleLine(sample, entity);
}
