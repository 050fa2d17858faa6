import { createHash } from "node:crypto";
import { ENTITY_TYPES, SPLITS, type Entity, type Sample, type Split } from "@/lib/core/dataset/release-schema";
import { DOWNLOAD_NAMES, formatEntityLine, formatSampleLine, type DownloadName } from "@/lib/core/dataset/download-format";

import type { Digest, ReleaseStats, SplitCounts } from "@/lib/core/dataset/release-json";

/** Counts shown on the dataset card (protocol section 3), aggregates only; the shapes live in release-json.ts. */
export type { Digest, ReleaseStats };

const zeroCounts = (): SplitCounts => ({ train: 0, dev: 0, test: 0 });

export function computeReleaseStats(entities: Entity[], samples: Record<Split, Sample[]>): ReleaseStats {
  const typeOf = new Map(entities.map((entity) => [entity.qid, entity.type]));
  const byType = Object.fromEntries(
    ENTITY_TYPES.map((type) => [type, { samples: zeroCounts(), entities: zeroCounts(), kbEntities: 0 }]),
  ) as ReleaseStats["byType"];
  for (const entity of entities) byType[entity.type].kbEntities += 1;
  const byCollection: Record<string, SplitCounts> = {};
  const splits = {} as ReleaseStats["splits"];
  for (const split of SPLITS) {
    const seen = new Set<string>();
    for (const sample of samples[split]) {
      const type = typeOf.get(sample.qid);
      if (type === undefined) continue;
      byType[type].samples[split] += 1;
      if (!seen.has(sample.qid)) {
        seen.add(sample.qid);
        byType[type].entities[split] += 1;
      }
      byCollection[sample.collection] ??= zeroCounts();
      byCollection[sample.collection]![split] += 1;
    }
    splits[split] = { samples: samples[split].length, entities: seen.size };
  }
  return { splits, kbEntities: entities.length, byType, byCollection };
}

/** SHA-256 of a split's gold: one `id<TAB>qid` line per sample, in file order (protocol section 10). */
export function computeGoldSha256(samples: Sample[]): string {
  const hash = createHash("sha256");
  for (const sample of samples) hash.update(`${sample.id}\t${sample.qid}\n`);
  return hash.digest("hex");
}

/** Digests of the exact bytes each download serves. */
export function computeDownloadDigests(entities: Entity[], samples: Record<Split, Sample[]>): Record<DownloadName, Digest> {
  const byQid = new Map(entities.map((entity) => [entity.qid, entity]));
  const digest = (lines: Iterable<string>): Digest => {
    const hash = createHash("sha256");
    let bytes = 0;
    for (const line of lines) {
      const buffer = Buffer.from(line, "utf8");
      hash.update(buffer);
      bytes += buffer.length;
    }
    return { sha256: hash.digest("hex"), bytes };
  };
  function* splitLines(split: Split): Iterable<string> {
    for (const sample of samples[split]) {
      const entity = byQid.get(sample.qid);
      if (entity) yield formatSampleLine(split, sample, entity);
    }
  }
  const result = {} as Record<DownloadName, Digest>;
  for (const name of DOWNLOAD_NAMES) {
    result[name] = name === "kb.jsonl" ? digest(entities.map(formatEntityLine)) : digest(splitLines(name.replace(".jsonl", "") as Split));
  }
  return result;
}
