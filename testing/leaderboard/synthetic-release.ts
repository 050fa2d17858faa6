import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { apportion } from "@/testing/synthetic/seeded-random";
import {
  ENTITY_TYPES,
  KB_FILE,
  META_FILE,
  SPLIT_FILES,
  SPLITS,
  type Entity,
  type EntityType,
  type Sample,
  type Split,
} from "@/lib/core/dataset/release-schema";
import { PAPER_COLLECTIONS } from "@/testing/synthetic/synth-texts";

/**
 * A minimal, deterministic release for seeding the leaderboard when no release
 * is imported (benchmarks, browser tests): entities named "Synthetic Place
 * 0001" and so on, two samples each, entity-level splits, the paper's type
 * proportions. Its texts are placeholders: it exists to carry scores, not to
 * be solved.
 */

/** Samples per type in the paper's test split (Table 7), used as proportions. */
const TYPE_WEIGHTS: Record<EntityType, number> = {
  Place: 2076,
  Organization: 1152,
  Person: 698,
  Event: 273,
  Work: 215,
  "Military Unit": 121,
  Other: 98,
};

const SAMPLES_PER_ENTITY = 2;

export type SyntheticReleaseOptions = { name: string; version: string; testSamples: number };

export type SyntheticRelease = {
  meta: { name: string; version: string; description: string; slice_family?: string };
  entities: Entity[];
  samples: Record<Split, Sample[]>;
};

export function synthesizeLeaderboardRelease(options: SyntheticReleaseOptions): SyntheticRelease {
  const testEntities = Math.max(ENTITY_TYPES.length, Math.ceil(options.testSamples / SAMPLES_PER_ENTITY));
  const perSplit: Record<Split, number> = {
    train: Math.max(ENTITY_TYPES.length, Math.round(testEntities / 4)),
    dev: Math.max(ENTITY_TYPES.length, Math.round(testEntities / 8)),
    test: testEntities,
  };
  const entities: Entity[] = [];
  const samples: Record<Split, Sample[]> = { train: [], dev: [], test: [] };
  const counters = new Map<EntityType, number>();
  let qid = 900000;
  let sampleNumber = 0;
  for (const split of SPLITS) {
    const byType = apportion(perSplit[split], ENTITY_TYPES.map((type) => TYPE_WEIGHTS[type]));
    ENTITY_TYPES.forEach((type, typeIndex) => {
      for (let i = 0; i < (byType[typeIndex] ?? 0); i += 1) {
        const ordinal = (counters.get(type) ?? 0) + 1;
        counters.set(type, ordinal);
        qid += 1;
        const name = `Synthetic ${type} ${String(ordinal).padStart(4, "0")}`;
        entities.push({
          qid: `Q${qid}`,
          name,
          type,
          aliases: [`S${type.replace(/\s+/g, "")}${ordinal}`],
          description: `placeholder ${type.toLowerCase()} of the synthetic leaderboard release`,
          description_wiki: "",
        });
        for (let k = 0; k < SAMPLES_PER_ENTITY; k += 1) {
          sampleNumber += 1;
          const collection = PAPER_COLLECTIONS[sampleNumber % PAPER_COLLECTIONS.length] ?? "Regional";
          samples[split].push({
            id: `lbs-${String(sampleNumber).padStart(6, "0")}`,
            qid: `Q${qid}`,
            collection,
            implicit_text: `I remember it well; it was part of my life for years. (synthetic sample ${sampleNumber})`,
            explicit_text: `I remember ${name} well; it was part of my life for years.`,
          });
        }
      }
    });
  }
  return {
    meta: {
      name: options.name,
      version: options.version,
      description: "Synthetic release for leaderboard benchmarks and browser tests; not real data.",
    },
    entities,
    samples,
  };
}

function jsonl(items: readonly object[]): string {
  return items.map((item) => JSON.stringify(item)).join("\n") + "\n";
}

/** Writes a release directory (protocol section 2) that npm run dataset:import accepts. */
export async function writeLeaderboardRelease(dir: string, release: SyntheticRelease): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, META_FILE), `${JSON.stringify(release.meta, null, 2)}\n`);
  await writeFile(path.join(dir, KB_FILE), jsonl(release.entities));
  for (const split of SPLITS) {
    await writeFile(path.join(dir, SPLIT_FILES[split]), jsonl(release.samples[split]));
  }
}
