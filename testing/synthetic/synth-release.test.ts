import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readRelease } from "@/lib/platform/io/read-release";
import { PAPER_COLLECTIONS } from "@/testing/synthetic/synth-texts";
import { ENTITY_TYPES, SPLITS, type Entity, type Sample, type Split } from "@/lib/core/dataset/release-schema";
import { planReleaseCounts, synthesizeRelease, writeRelease } from "@/testing/synthetic/synth-release";
import { validateRelease } from "@/lib/core/dataset/validate-release";
import type { ReleaseContent } from "@/lib/core/dataset/validate-release";

function typeCounts(release: ReleaseContent): { samples: Record<string, number>; entities: Record<string, number> } {
  const typeByQid = new Map(release.entities.map((entity) => [entity.qid, entity.type]));
  const samples: Record<string, number> = {};
  const entities: Record<string, number> = {};
  for (const entity of release.entities) {
    entities[entity.type] = (entities[entity.type] ?? 0) + 1;
  }
  for (const split of SPLITS) {
    for (const sample of release.samples[split]) {
      const type = typeByQid.get(sample.qid) ?? "missing";
      samples[type] = (samples[type] ?? 0) + 1;
    }
  }
  return { samples, entities };
}

function distinctQids(samples: readonly Sample[]): number {
  return new Set(samples.map((sample) => sample.qid)).size;
}

function toTexts(release: ReleaseContent) {
  const lines = (rows: readonly object[]) => rows.map((row) => JSON.stringify(row));
  return {
    "dataset.json": JSON.stringify(release.meta),
    "kb.jsonl": lines(release.entities),
    "train.jsonl": lines(release.samples.train),
    "dev.jsonl": lines(release.samples.dev),
    "test.jsonl": lines(release.samples.test),
  };
}

/** Letters and digits only, lower-cased: equal for names that differ in case or punctuation only. */
function skeleton(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}

describe("synthesizeRelease, full size", () => {
  let release: ReleaseContent;

  // A full-size release takes seconds of CPU; a loaded machine needs more than the default 10 s.
  beforeAll(() => {
    release = synthesizeRelease({ seed: 42, size: "full" });
  }, 60_000);

  it("has the paper's split sizes exactly (Table 2)", () => {
    const samples: Record<Split, number> = { train: 17971, dev: 2532, test: 4633 };
    const entities: Record<Split, number> = { train: 8635, dev: 1234, test: 2468 };
    for (const split of SPLITS) {
      expect(release.samples[split]).toHaveLength(samples[split]);
      expect(distinctQids(release.samples[split])).toBe(entities[split]);
    }
    expect(release.entities).toHaveLength(12337);
  });

  it("has the paper's type distribution exactly (Table 3)", () => {
    expect(typeCounts(release)).toEqual({
      samples: {
        Place: 11893,
        Organization: 5366,
        Person: 3450,
        Event: 2162,
        Work: 1195,
        "Military Unit": 537,
        Other: 533,
      },
      entities: {
        Place: 4821,
        Organization: 2894,
        Person: 2207,
        Event: 1102,
        Work: 743,
        "Military Unit": 312,
        Other: 258,
      },
    });
  });

  it("validates as a gold release with no leakage and no shared entities", () => {
    const result = validateRelease(toTexts(release));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.leakage).toEqual([]);
  });

  it("uses all 11 collections, Veterans the largest and Refugee the smallest", () => {
    const counts = new Map<string, number>();
    for (const split of SPLITS) {
      for (const sample of release.samples[split]) {
        counts.set(sample.collection, (counts.get(sample.collection) ?? 0) + 1);
      }
    }
    expect([...counts.keys()].sort()).toEqual([...PAPER_COLLECTIONS].sort());
    // 25,136 samples x 517 / 1,994 transcripts = 6,517.1; x 27 / 1,994 = 340.4
    expect(counts.get("Veterans")).toBe(6517);
    expect(counts.get("Refugee")).toBe(340);
  });

  it("gives about half of the entities 1-3 aliases, some differing from the name in case or punctuation only", () => {
    const withAliases = release.entities.filter((entity) => entity.aliases.length > 0);
    expect(withAliases.length / release.entities.length).toBeGreaterThan(0.47);
    expect(withAliases.length / release.entities.length).toBeLessThan(0.55);
    expect(Math.max(...release.entities.map((entity) => entity.aliases.length))).toBe(3);
    const punctuationOnly = release.entities.filter((entity: Entity) =>
      entity.aliases.some((alias) => alias !== entity.name && skeleton(alias) === skeleton(entity.name)),
    );
    expect(punctuationOnly.length).toBeGreaterThan(100);
  });

  it("has distinct names, unique ids like irc-000001, and explicit texts that contain the name", () => {
    const names = new Set(release.entities.map((entity) => entity.name.toLowerCase()));
    expect(names.size).toBe(12337);
    const ids = SPLITS.flatMap((split) => release.samples[split].map((sample) => sample.id));
    expect(new Set(ids).size).toBe(25136);
    expect(ids.every((id) => /^irc-\d{6}$/.test(id))).toBe(true);
    expect([...ids].sort()[0]).toBe("irc-000001");
    expect([...ids].sort()[25135]).toBe("irc-025136");
    const nameByQid = new Map(release.entities.map((entity) => [entity.qid, entity.name]));
    const dev = release.samples.dev;
    expect(dev.every((sample) => sample.explicit_text.includes(nameByQid.get(sample.qid) ?? "\u0000"))).toBe(true);
  });
});

describe("synthesizeRelease, small size", () => {
  it("is deterministic for a seed and differs between seeds", () => {
    const first = synthesizeRelease({ seed: 7, size: "small" });
    const again = synthesizeRelease({ seed: 7, size: "small" });
    const other = synthesizeRelease({ seed: 8, size: "small" });
    expect(again).toEqual(first);
    expect(other.entities.map((e) => e.name)).not.toEqual(first.entities.map((e) => e.name));
  });

  it("is about 1/20 of the paper with every type, every collection and non-empty splits", () => {
    const release = synthesizeRelease({ seed: 1, size: "small" });
    // round(12,337 / 20) = 617 entities, round(25,136 / 20) = 1,257 samples
    expect(release.entities).toHaveLength(617);
    expect(SPLITS.reduce((sum, split) => sum + release.samples[split].length, 0)).toBe(1257);
    for (const split of SPLITS) {
      expect(release.samples[split].length).toBeGreaterThan(0);
    }
    const { samples, entities } = typeCounts(release);
    expect(Object.keys(samples).sort()).toEqual([...ENTITY_TYPES].sort());
    expect(Object.keys(entities).sort()).toEqual([...ENTITY_TYPES].sort());
    const collections = new Set(SPLITS.flatMap((split) => release.samples[split].map((sample) => sample.collection)));
    expect(collections.size).toBe(11);
    expect(validateRelease(toTexts(release)).ok).toBe(true);
  });

  it("writes implicit texts of 3 to 5 first-person sentences", () => {
    const release = synthesizeRelease({ seed: 3, size: "small" });
    for (const sample of release.samples.train) {
      const sentences = sample.implicit_text.split(/(?<=[.!?])\s+(?=[A-Z])/u);
      expect(sentences.length).toBeGreaterThanOrEqual(3);
      expect(sentences.length).toBeLessThanOrEqual(5);
      expect(sample.implicit_text).toMatch(/\b(I|my|My|we|We|us)\b/);
    }
  });

  it("plans every type x split cell with at least one entity and a sample per entity", () => {
    for (const size of ["full", "small"] as const) {
      const plan = planReleaseCounts(size);
      for (const type of ENTITY_TYPES) {
        for (const split of SPLITS) {
          expect(plan.entities[type][split]).toBeGreaterThan(0);
          expect(plan.samples[type][split]).toBeGreaterThanOrEqual(plan.entities[type][split]);
        }
      }
    }
  });
});

describe("writeRelease", () => {
  it("writes a gold release that readRelease loads back unchanged", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "irc-synth-"));
    try {
      const release = synthesizeRelease({ seed: 5, size: "small" });
      await writeRelease(dir, release);
      const loaded = await readRelease(dir);
      expect(loaded.ok).toBe(true);
      if (!loaded.ok) return;
      expect(loaded.release.meta).toEqual(release.meta);
      expect(loaded.release.entities).toEqual(release.entities);
      expect(loaded.release.samples).toEqual(release.samples);
      expect(Object.keys(loaded.release.files).sort()).toEqual(["dataset.json", "dev.jsonl", "kb.jsonl", "test.jsonl", "train.jsonl"]);
      expect(loaded.leakage).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
