import { PAPER_COLLECTIONS } from "@/testing/synthetic/synth-texts";
import { ENTITY_TYPES, SPLITS, type EntityType, type Split } from "@/lib/core/dataset/release-schema";
import type { ReleaseContent } from "@/lib/core/dataset/validate-release";

/**
 * Sizes of a release per split, per entity type and per collection: what
 * the dataset card shows (protocol section 3) and the synth script prints.
 * Entity counts are distinct QIDs with at least one sample in the split.
 */

export type SplitCounts = Record<Split, number>;

export type ReleaseSummary = {
  kb: { entities: number; withAliases: number; byType: Record<EntityType, number> };
  samples: SplitCounts;
  entities: SplitCounts;
  byType: Record<EntityType, { samples: SplitCounts; entities: SplitCounts }>;
  /** The paper's collections first, in the paper's order, then any others alphabetically. */
  byCollection: Record<string, SplitCounts>;
};

function zeroSplits(): SplitCounts {
  return { train: 0, dev: 0, test: 0 };
}

export function summarizeRelease(release: ReleaseContent): ReleaseSummary {
  const typeByQid = new Map(release.entities.map((entity) => [entity.qid, entity.type]));
  const kbByType = Object.fromEntries(ENTITY_TYPES.map((type) => [type, 0])) as Record<EntityType, number>;
  for (const entity of release.entities) {
    kbByType[entity.type] += 1;
  }
  const byType = Object.fromEntries(
    ENTITY_TYPES.map((type) => [type, { samples: zeroSplits(), entities: zeroSplits() }]),
  ) as ReleaseSummary["byType"];
  const byCollection: Record<string, SplitCounts> = {};
  const samples = zeroSplits();
  const entities = zeroSplits();
  for (const split of SPLITS) {
    const seen = new Set<string>();
    for (const sample of release.samples[split]) {
      samples[split] += 1;
      const counts = byCollection[sample.collection] ?? zeroSplits();
      counts[split] += 1;
      byCollection[sample.collection] = counts;
      const type = typeByQid.get(sample.qid);
      if (type !== undefined) {
        byType[type].samples[split] += 1;
      }
      if (seen.has(sample.qid)) {
        continue;
      }
      seen.add(sample.qid);
      entities[split] += 1;
      if (type !== undefined) {
        byType[type].entities[split] += 1;
      }
    }
  }
  return {
    kb: {
      entities: release.entities.length,
      withAliases: release.entities.filter((entity) => entity.aliases.length > 0).length,
      byType: kbByType,
    },
    samples,
    entities,
    byType,
    byCollection: orderCollections(byCollection),
  };
}

function orderCollections(counts: Record<string, SplitCounts>): Record<string, SplitCounts> {
  const paper: readonly string[] = PAPER_COLLECTIONS;
  const names = Object.keys(counts).sort((a, b) => {
    const rankA = paper.includes(a) ? paper.indexOf(a) : paper.length;
    const rankB = paper.includes(b) ? paper.indexOf(b) : paper.length;
    return rankA - rankB || a.localeCompare(b);
  });
  const ordered: Record<string, SplitCounts> = {};
  for (const name of names) {
    ordered[name] = counts[name] ?? zeroSplits();
  }
  return ordered;
}
