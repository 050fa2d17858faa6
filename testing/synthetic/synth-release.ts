import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { createLeakageMatcher, normalizeForLeakage, type LeakageMatcher } from "@/lib/core/dataset/find-leakage";
import {
  ENTITY_TYPES,
  KB_FILE,
  META_FILE,
  SPLIT_FILES,
  SPLITS,
  type DatasetMeta,
  type Entity,
  type EntityType,
  type Sample,
  type Split,
} from "@/lib/core/dataset/release-schema";
import { apportion, createSeededRandom, type SeededRandom } from "@/testing/synthetic/seeded-random";
import { makeEntityDraft, type EntityDraft } from "@/testing/synthetic/synth-entities";
import { NEUTRAL_NARRATIVE, PAPER_COLLECTIONS, writeNarrative, type PaperCollection } from "@/testing/synthetic/synth-texts";
import type { ReleaseContent } from "@/lib/core/dataset/validate-release";

/**
 * A synthetic release shaped like IRC-Bench (paper sections 3.2-3.6), for
 * development, demos and load tests. Deterministic for a seed: a seeded PRNG,
 * never Math.random.
 *
 * Exact at full size: entities and samples per split (Table 2), entities and
 * samples per type (Table 3), and the type x split cells of both (each split's
 * total apportioned over the types by largest remainder). Collections follow
 * the paper's transcript counts (section 3.2), apportioned over all samples.
 */

export type ReleaseSize = "full" | "small";

export type SynthesizeReleaseOptions = { seed: number; size: ReleaseSize };

export const PAPER_ENTITIES_BY_TYPE: Readonly<Record<EntityType, number>> = {
  Place: 4821,
  Organization: 2894,
  Person: 2207,
  Event: 1102,
  Work: 743,
  "Military Unit": 312,
  Other: 258,
};

export const PAPER_SAMPLES_BY_TYPE: Readonly<Record<EntityType, number>> = {
  Place: 11893,
  Organization: 5366,
  Person: 3450,
  Event: 2162,
  Work: 1195,
  "Military Unit": 537,
  Other: 533,
};

export const PAPER_ENTITIES_BY_SPLIT: Readonly<Record<Split, number>> = { train: 8635, dev: 1234, test: 2468 };

export const PAPER_SAMPLES_BY_SPLIT: Readonly<Record<Split, number>> = { train: 17971, dev: 2532, test: 4633 };

export const PAPER_TRANSCRIPTS_BY_COLLECTION: Readonly<Record<PaperCollection, number>> = {
  Veterans: 517,
  Immigration: 402,
  Regional: 314,
  "Depression Era": 213,
  "Japanese American": 156,
  Academic: 153,
  "September 11": 72,
  "Civil Rights": 68,
  "COVID-19": 42,
  Labor: 30,
  Refugee: 27,
};

/** The small release is about 1/20 of the paper's size. */
const SMALL_SCALE = 20;

/** Chance of aliases for an entity (paper section 3.4: 51.2% have at least one). */
const ALIAS_SHARE = 0.515;
const EMPTY_DESCRIPTION_SHARE = 0.02;
const EMPTY_WIKI_DESCRIPTION_SHARE = 0.15;
const MAX_NAME_ATTEMPTS = 10_000;
const MAX_NARRATIVE_ATTEMPTS = 8;

export type TypeSplitCounts = Record<EntityType, Record<Split, number>>;

export type ReleasePlan = { entities: TypeSplitCounts; samples: TypeSplitCounts };

function valuesOf<K extends string>(keys: readonly K[], record: Readonly<Record<K, number>>): number[] {
  return keys.map((key) => record[key]);
}

function toRecord<K extends string>(keys: readonly K[], values: readonly number[]): Record<K, number> {
  const out = {} as Record<K, number>;
  keys.forEach((key, index) => {
    out[key] = values[index] ?? 0;
  });
  return out;
}

function scaled<K extends string>(keys: readonly K[], record: Readonly<Record<K, number>>, size: ReleaseSize): Record<K, number> {
  if (size === "full") {
    return { ...record };
  }
  const values = valuesOf(keys, record);
  const total = Math.round(values.reduce((sum, value) => sum + value, 0) / SMALL_SCALE);
  return toRecord(keys, apportion(total, values));
}

/**
 * A type x split table whose row sums are `byType` and column sums `bySplit`:
 * train and dev columns are apportioned over the types, test is the rest.
 */
function crossTable(byType: Record<EntityType, number>, bySplit: Record<Split, number>): TypeSplitCounts {
  const typeWeights = valuesOf(ENTITY_TYPES, byType);
  const train = apportion(bySplit.train, typeWeights);
  const dev = apportion(bySplit.dev, typeWeights);
  const table = {} as TypeSplitCounts;
  ENTITY_TYPES.forEach((type, index) => {
    const trainCount = train[index] ?? 0;
    const devCount = dev[index] ?? 0;
    table[type] = { train: trainCount, dev: devCount, test: byType[type] - trainCount - devCount };
  });
  return table;
}

export function planReleaseCounts(size: ReleaseSize): ReleasePlan {
  const entitiesByType = scaled(ENTITY_TYPES, PAPER_ENTITIES_BY_TYPE, size);
  const samplesByType = scaled(ENTITY_TYPES, PAPER_SAMPLES_BY_TYPE, size);
  const entitiesBySplit = scaled(SPLITS, PAPER_ENTITIES_BY_SPLIT, size);
  const samplesBySplit = scaled(SPLITS, PAPER_SAMPLES_BY_SPLIT, size);
  const plan = { entities: crossTable(entitiesByType, entitiesBySplit), samples: crossTable(samplesByType, samplesBySplit) };
  for (const type of ENTITY_TYPES) {
    for (const split of SPLITS) {
      const entityCount = plan.entities[type][split];
      const sampleCount = plan.samples[type][split];
      // Every entity of a cell needs at least one sample of that cell.
      if (entityCount < 1 || sampleCount < entityCount) {
        throw new Error(`release plan: ${type}/${split} has ${entityCount} entities for ${sampleCount} samples`);
      }
    }
  }
  return plan;
}

type SynthEntity = { entity: Entity; draft: EntityDraft };

function chooseAliases(random: SeededRandom, draft: EntityDraft): string[] {
  const candidates = [...new Set(draft.aliasCandidates)].filter((alias) => alias !== draft.name);
  if (candidates.length === 0 || !random.chance(ALIAS_SHARE)) {
    return [];
  }
  const roll = random.next();
  const wanted = roll < 0.6 ? 1 : roll < 0.9 ? 2 : 3;
  return random.shuffle(candidates).slice(0, wanted);
}

function makeQids(random: SeededRandom, count: number): string[] {
  const seen = new Set<number>();
  while (seen.size < count) {
    seen.add(100 + random.int(99_999_900));
  }
  return [...seen].map((n) => `Q${n}`);
}

function makeEntities(random: SeededRandom, plan: ReleasePlan): Record<EntityType, SynthEntity[]> {
  const takenNames = new Set<string>();
  const drafts: { type: EntityType; draft: EntityDraft }[] = [];
  for (const type of ENTITY_TYPES) {
    const wanted = SPLITS.reduce((sum, split) => sum + plan.entities[type][split], 0);
    let made = 0;
    let failures = 0;
    while (made < wanted) {
      const draft = makeEntityDraft(random, type);
      const key = normalizeForLeakage(draft.name);
      if (takenNames.has(key)) {
        failures += 1;
        if (failures > MAX_NAME_ATTEMPTS) {
          throw new Error(`could not find ${wanted} distinct ${type} names`);
        }
        continue;
      }
      takenNames.add(key);
      drafts.push({ type, draft });
      made += 1;
    }
  }
  const qids = makeQids(random, drafts.length);
  const byType = Object.fromEntries(ENTITY_TYPES.map((type) => [type, [] as SynthEntity[]])) as Record<EntityType, SynthEntity[]>;
  drafts.forEach(({ type, draft }, index) => {
    const entity: Entity = {
      qid: qids[index] ?? `Q${index + 1}`,
      name: draft.name,
      type,
      aliases: chooseAliases(random, draft),
      description: random.chance(EMPTY_DESCRIPTION_SHARE) ? "" : draft.description,
      description_wiki: random.chance(EMPTY_WIKI_DESCRIPTION_SHARE) ? "" : `${draft.name} is ${draft.wikiClause}.`,
    };
    byType[type].push({ entity, draft });
  });
  return byType;
}

/** Samples per entity in one cell: at least one each, the rest long-tailed (a few entities get many). */
function samplesPerEntity(random: SeededRandom, entityCount: number, sampleCount: number): number[] {
  const counts = new Array<number>(entityCount).fill(1);
  const cumulative: number[] = [];
  let total = 0;
  for (let index = 0; index < entityCount; index += 1) {
    // Pareto weights (alpha 1.5), capped so no entity swallows a cell.
    total += Math.min(60, (1 - random.next()) ** (-1 / 1.5));
    cumulative.push(total);
  }
  for (let extra = entityCount; extra < sampleCount; extra += 1) {
    const target = random.next() * total;
    let low = 0;
    let high = entityCount - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((cumulative[mid] ?? total) > target) {
        high = mid;
      } else {
        low = mid + 1;
      }
    }
    counts[low] = (counts[low] ?? 0) + 1;
  }
  return counts;
}

type SampleSpec = { synth: SynthEntity; split: Split; collection: PaperCollection };

function collectionsFor(random: SeededRandom, sampleCount: number): PaperCollection[] {
  const counts = apportion(sampleCount, valuesOf(PAPER_COLLECTIONS, PAPER_TRANSCRIPTS_BY_COLLECTION));
  const list = PAPER_COLLECTIONS.flatMap((collection, index) => new Array<PaperCollection>(counts[index] ?? 0).fill(collection));
  return random.shuffle(list);
}

function planSamples(random: SeededRandom, plan: ReleasePlan, entitiesByType: Record<EntityType, SynthEntity[]>): SampleSpec[] {
  const specs: Omit<SampleSpec, "collection">[] = [];
  for (const type of ENTITY_TYPES) {
    const shuffled = random.shuffle(entitiesByType[type]);
    let offset = 0;
    for (const split of SPLITS) {
      const cell = shuffled.slice(offset, offset + plan.entities[type][split]);
      offset += cell.length;
      const counts = samplesPerEntity(random, cell.length, plan.samples[type][split]);
      cell.forEach((synth, index) => {
        for (let n = 0; n < (counts[index] ?? 0); n += 1) {
          specs.push({ synth, split });
        }
      });
    }
  }
  const collections = collectionsFor(random, specs.length);
  const withCollections = specs.map((spec, index) => ({ ...spec, collection: collections[index] ?? "Veterans" }));
  // Ids are given in a random order, so an id says nothing about its split or type.
  return random.shuffle(withCollections);
}

function writeSample(random: SeededRandom, spec: SampleSpec, id: string, matcher: LeakageMatcher): Sample {
  const { entity, draft } = spec.synth;
  const narrativeEntity = {
    type: entity.type,
    name: entity.name,
    implicitRef: draft.implicitRef,
    implicitShortRef: draft.implicitShortRef,
  };
  let pair = writeNarrative(random, narrativeEntity, spec.collection);
  for (let attempt = 1; attempt < MAX_NARRATIVE_ATTEMPTS && matcher.find(pair.implicitText) !== undefined; attempt += 1) {
    pair = writeNarrative(random, narrativeEntity, spec.collection);
  }
  const implicitText = matcher.find(pair.implicitText) === undefined ? pair.implicitText : NEUTRAL_NARRATIVE;
  return { id, qid: entity.qid, collection: spec.collection, implicit_text: implicitText, explicit_text: pair.explicitText };
}

function sampleId(index: number): string {
  return `irc-${String(index + 1).padStart(6, "0")}`;
}

function qidNumber(qid: string): number {
  return Number(qid.slice(1));
}

export function synthesizeRelease(options: SynthesizeReleaseOptions): ReleaseContent {
  const random = createSeededRandom(options.seed);
  const plan = planReleaseCounts(options.size);
  const entitiesByType = makeEntities(random, plan);
  const specs = planSamples(random, plan, entitiesByType);
  const matchers = new Map<string, LeakageMatcher>();
  const samples: Record<Split, Sample[]> = { train: [], dev: [], test: [] };
  specs.forEach((spec, index) => {
    const { entity } = spec.synth;
    let matcher = matchers.get(entity.qid);
    if (matcher === undefined) {
      matcher = createLeakageMatcher([entity.name, ...entity.aliases]);
      matchers.set(entity.qid, matcher);
    }
    samples[spec.split].push(writeSample(random, spec, sampleId(index), matcher));
  });
  const entities = ENTITY_TYPES.flatMap((type) => entitiesByType[type].map((synth) => synth.entity));
  entities.sort((a, b) => qidNumber(a.qid) - qidNumber(b.qid));
  const sizeLabel = options.size === "full" ? "" : "-small";
  const meta: DatasetMeta = {
    name: "irc-bench-synthetic",
    version: `1.0-synth${sizeLabel}-s${options.seed}`,
    description:
      `Synthetic IRC-Bench-shaped release (size ${options.size}, seed ${options.seed}): invented entities and ` +
      "template narratives with the paper's split, type and collection proportions. Not real data.",
  };
  return { meta, entities, samples };
}

function toJsonl(rows: readonly object[]): string {
  return rows.map((row) => JSON.stringify(row)).join("\n") + (rows.length > 0 ? "\n" : "");
}

/** Writes a gold release directory: kb.jsonl, train/dev/test.jsonl (with qid) and dataset.json. */
export async function writeRelease(dir: string, release: ReleaseContent): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, META_FILE), `${JSON.stringify(release.meta, null, 2)}\n`, "utf8");
  await writeFile(path.join(dir, KB_FILE), toJsonl(release.entities), "utf8");
  for (const split of SPLITS) {
    await writeFile(path.join(dir, SPLIT_FILES[split]), toJsonl(release.samples[split]), "utf8");
  }
}
