import { spawn } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { isAppError, type AppError } from "@/lib/core/errors";
import { importRelease } from "@/lib/domain/releases/import-release";
import {
  DEMO_RELEASE_DIR,
  REPO_ROOT,
  SPLIT_NAMES,
  appendLine,
  copyRelease,
  countReleaseRows,
  editLine,
  editMeta,
  entityByQid,
  readReleaseFiles,
  removeTempDirs,
  resetReleaseTables,
  sha256Hex,
  snapshotReleases,
  type RawRelease,
  type SplitName,
} from "./release-support";

/**
 * Release import (protocol section 2) against the real PostgreSQL: every
 * rejection rule with the file and line it must name, all-or-nothing writes,
 * idempotent re-import, version conflicts, activation, leakage reporting, the
 * demo release's statistics, and the CLI's output and exit codes.
 */

const TYPE_LIST = "Place, Organization, Person, Event, Work, Military Unit, Other";
const PAPER_COLLECTIONS = [
  "Veterans",
  "Immigration",
  "Regional",
  "Depression Era",
  "Japanese American",
  "Academic",
  "September 11",
  "Civil Rights",
  "COVID-19",
  "Labor",
  "Refugee",
];

let demo: RawRelease;

/** The demo release's facts the cases below build on, read from its files. */
function demoFacts() {
  const trainFirst = demo.samples.train[0];
  const devSecond = demo.samples.dev[1];
  const kbSecond = demo.entities[1];
  if (!trainFirst || !devSecond || !kbSecond) throw new Error("the demo release is smaller than these tests assume");
  const sampledQids = new Set(SPLIT_NAMES.flatMap((split) => demo.samples[split].map((sample) => sample.qid)));
  const distractorIndex = demo.entities.findIndex((entity) => !sampledQids.has(entity.qid));
  if (distractorIndex < 0) throw new Error("the demo release has no KB-only entity");
  return { trainFirst, devSecond, kbSecond, distractorLine: distractorIndex + 1 };
}

async function rejectionOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error("expected the import to be rejected, but it succeeded");
}

type ExpectedProblem = { file: string; line?: number; message: unknown };

/** Imports `dir`, expects a validation error with exactly `problems`, and the release tables untouched. */
async function expectRejected(dir: string, problems: ExpectedProblem[]): Promise<AppError> {
  const before = await snapshotReleases();
  const error = await rejectionOf(importRelease({ dir, activate: true }));
  expect(error.code).toBe("validation");
  expect(error.problems).toEqual(problems);
  expect(error.message).toContain(`${problems.length} problem(s)`);
  expect(await snapshotReleases()).toEqual(before);
  return error;
}

const MALFORMED = expect.stringMatching(/^malformed JSON: /);

beforeAll(async () => {
  demo = await readReleaseFiles(DEMO_RELEASE_DIR);
});

afterEach(async () => {
  await removeTempDirs();
});

afterAll(async () => {
  await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS rel_int_poison ON "Sample"`);
  await db.$executeRawUnsafe(`DROP FUNCTION IF EXISTS rel_int_poison()`);
});

describe("[RELEASES] the demo release", () => {
  beforeAll(async () => {
    await resetReleaseTables();
  });

  it("imports as the first release, is activated without being asked, and has no leakage findings", async () => {
    const result = await importRelease({ dir: DEMO_RELEASE_DIR, activate: false });
    expect(result).toMatchObject({ name: "irc-bench-demo", version: "1.0", outcome: "imported", isActive: true, leakage: [] });
    const stored = await db.datasetRelease.findUniqueOrThrow({ where: { id: result.releaseId } });
    expect(stored.isActive).toBe(true);
    expect(stored.leakage).toEqual({ count: 0, findings: [] });
    expect(await countReleaseRows()).toEqual({ releases: 1, entities: 140, samples: 255 });
  });

  it("has statistics that match its files: 140 entities, 172/27/56 samples, all seven types and all eleven collections", async () => {
    const stored = await db.datasetRelease.findFirstOrThrow({ where: { name: "irc-bench-demo", version: "1.0" } });
    const typeOf = entityByQid(demo);
    const zero = (): Record<SplitName, number> => ({ train: 0, dev: 0, test: 0 });
    const byType: Record<string, { samples: Record<SplitName, number>; entities: Record<SplitName, number>; kbEntities: number }> = {};
    for (const type of TYPE_LIST.split(", ")) byType[type] = { samples: zero(), entities: zero(), kbEntities: 0 };
    for (const entity of demo.entities) (byType[entity.type] ?? { kbEntities: 0 }).kbEntities += 1;
    const byCollection: Record<string, Record<SplitName, number>> = {};
    const splits: Record<string, { samples: number; entities: number }> = {};
    for (const split of SPLIT_NAMES) {
      const seen = new Set<string>();
      for (const sample of demo.samples[split]) {
        const cell = byType[typeOf.get(sample.qid)?.type ?? "missing"];
        if (!cell) throw new Error(`sample ${sample.id} has no typed entity`);
        cell.samples[split] += 1;
        if (!seen.has(sample.qid)) cell.entities[split] += 1;
        seen.add(sample.qid);
        const counts = byCollection[sample.collection] ?? zero();
        counts[split] += 1;
        byCollection[sample.collection] = counts;
      }
      splits[split] = { samples: demo.samples[split].length, entities: seen.size };
    }
    expect(splits).toEqual({ train: { samples: 172, entities: 86 }, dev: { samples: 27, entities: 13 }, test: { samples: 56, entities: 25 } });
    expect(stored.stats).toEqual({ splits, kbEntities: 140, byType, byCollection });
    for (const [type, cell] of Object.entries(byType)) {
      expect(cell.kbEntities, `${type} in the KB`).toBeGreaterThan(0);
      expect(cell.samples.train + cell.samples.dev + cell.samples.test, `${type} samples`).toBeGreaterThan(0);
    }
    expect(Object.keys(byCollection).sort()).toEqual([...PAPER_COLLECTIONS].sort());
  });

  it("stores every entity and sample exactly as in the files, in file order, with digests of the files and the gold", async () => {
    const release = await db.datasetRelease.findFirstOrThrow({ where: { name: "irc-bench-demo", version: "1.0" } });
    const entities = await db.entity.findMany({ where: { releaseId: release.id }, orderBy: { ordinal: "asc" } });
    expect(
      entities.map((row) => ({
        qid: row.qid,
        name: row.name,
        type: row.type === "MilitaryUnit" ? "Military Unit" : row.type,
        aliases: row.aliases,
        description: row.description,
        description_wiki: row.descriptionWiki,
      })),
    ).toEqual(demo.entities);
    const goldSha256: Record<string, string> = {};
    for (const split of SPLIT_NAMES) {
      const rows = await db.sample.findMany({ where: { releaseId: release.id, split }, orderBy: { ordinal: "asc" }, include: { entity: true } });
      expect(
        rows.map((row) => ({ id: row.sampleId, qid: row.entity.qid, collection: row.collection, implicit_text: row.implicitText, explicit_text: row.explicitText })),
        split,
      ).toEqual(demo.samples[split]);
      goldSha256[split] = sha256Hex(demo.samples[split].map((sample) => `${sample.id}\t${sample.qid}\n`).join(""));
    }
    expect(release.goldSha256).toEqual(goldSha256);
    const files = release.files as Record<string, { sha256: string; bytes: number }>;
    for (const file of ["dataset.json", "kb.jsonl", "train.jsonl", "dev.jsonl", "test.jsonl"]) {
      const bytes = await readFile(path.join(DEMO_RELEASE_DIR, file));
      expect(files[file], file).toEqual({ sha256: sha256Hex(bytes), bytes: bytes.length });
    }
  });

  it("re-imports identical files as unchanged: same release, no new rows, equal statistics", async () => {
    const before = await db.datasetRelease.findFirstOrThrow({ where: { name: "irc-bench-demo", version: "1.0" } });
    const counts = await countReleaseRows();
    const copy = await copyRelease();
    const again = await importRelease({ dir: copy, activate: false });
    expect(again).toMatchObject({ releaseId: before.id, outcome: "unchanged", isActive: true, leakage: [] });
    expect(again.stats).toEqual(before.stats);
    expect(await countReleaseRows()).toEqual(counts);
    const after = await db.datasetRelease.findUniqueOrThrow({ where: { id: before.id } });
    expect(after).toEqual(before);
  });
});

describe("[RELEASES] a broken release is rejected with every problem, its file and line, and nothing is written", () => {
  beforeAll(async () => {
    await resetReleaseTables();
    await importRelease({ dir: DEMO_RELEASE_DIR, activate: true });
  });

  it("malformed JSON in a split file", async () => {
    const dir = await copyRelease();
    await editLine(dir, "train.jsonl", 5, (record) => JSON.stringify(record).slice(0, -1));
    await expectRejected(dir, [{ file: "train.jsonl", line: 5, message: MALFORMED }]);
  });

  it("a KB line that is JSON but not an object", async () => {
    const dir = await copyRelease();
    const { distractorLine } = demoFacts();
    await editLine(dir, "kb.jsonl", distractorLine, () => `["Q1", "not an entity"]`);
    await expectRejected(dir, [{ file: "kb.jsonl", line: distractorLine, message: "expected a JSON object, got an array" }]);
  });

  it("a missing field of a sample", async () => {
    const dir = await copyRelease();
    await editLine(dir, "dev.jsonl", 3, ({ collection: _collection, ...rest }) => rest);
    await expectRejected(dir, [{ file: "dev.jsonl", line: 3, message: 'missing field "collection" (expected a string)' }]);
  });

  it("a missing field of an entity", async () => {
    const dir = await copyRelease();
    await editLine(dir, "kb.jsonl", 4, ({ description_wiki: _wiki, ...rest }) => rest);
    await expectRejected(dir, [{ file: "kb.jsonl", line: 4, message: 'missing field "description_wiki" (expected a string)' }]);
  });

  it("a mistyped field of an entity", async () => {
    const dir = await copyRelease();
    await editLine(dir, "kb.jsonl", 7, (record) => ({ ...record, aliases: "NYC" }));
    await expectRejected(dir, [{ file: "kb.jsonl", line: 7, message: 'field "aliases" must be an array, got a string' }]);
  });

  it("a mistyped field of a sample", async () => {
    const dir = await copyRelease();
    await editLine(dir, "test.jsonl", 2, (record) => ({ ...record, implicit_text: 42 }));
    await expectRejected(dir, [{ file: "test.jsonl", line: 2, message: 'field "implicit_text" must be a string, got a number' }]);
  });

  it("a sample qid that is not a Wikidata QID", async () => {
    const dir = await copyRelease();
    await editLine(dir, "train.jsonl", 3, (record) => ({ ...record, qid: "q8333" }));
    await expectRejected(dir, [{ file: "train.jsonl", line: 3, message: 'field "qid" must be a Wikidata QID such as Q52418 (got "q8333")' }]);
  });

  it("an unknown entity type", async () => {
    const dir = await copyRelease();
    await editLine(dir, "kb.jsonl", 10, (record) => ({ ...record, type: "Planet" }));
    await expectRejected(dir, [{ file: "kb.jsonl", line: 10, message: `field "type" is "Planet"; expected one of: ${TYPE_LIST}` }]);
  });

  it("a duplicate qid in the KB, reported on its later line", async () => {
    const dir = await copyRelease();
    const { kbSecond } = demoFacts();
    const line = await appendLine(dir, "kb.jsonl", { ...kbSecond, name: `${kbSecond.name} (again)` });
    expect(line).toBe(demo.entities.length + 1);
    await expectRejected(dir, [{ file: "kb.jsonl", line, message: `duplicate qid "${kbSecond.qid}" (first seen on line 2)` }]);
  });

  it("a duplicate sample id within a split", async () => {
    const dir = await copyRelease();
    const { devSecond } = demoFacts();
    await editLine(dir, "dev.jsonl", 10, (record) => ({ ...record, id: devSecond.id }));
    await expectRejected(dir, [{ file: "dev.jsonl", line: 10, message: `duplicate id "${devSecond.id}" (first seen on line 2)` }]);
  });

  it("a duplicate sample id across splits, naming the split file where it was first seen", async () => {
    const dir = await copyRelease();
    const { trainFirst } = demoFacts();
    await editLine(dir, "test.jsonl", 4, (record) => ({ ...record, id: trainFirst.id }));
    await expectRejected(dir, [{ file: "test.jsonl", line: 4, message: `duplicate id "${trainFirst.id}" (first seen on train.jsonl:1)` }]);
  });

  it("a sample whose qid is not in the KB", async () => {
    const dir = await copyRelease();
    await editLine(dir, "train.jsonl", 8, (record) => ({ ...record, qid: "Q999999999" }));
    await expectRejected(dir, [{ file: "train.jsonl", line: 8, message: 'qid "Q999999999" is not in kb.jsonl' }]);
  });

  it("an entity in more than one split", async () => {
    const dir = await copyRelease();
    const { trainFirst } = demoFacts();
    await editLine(dir, "dev.jsonl", 6, (record) => ({ ...record, qid: trainFirst.qid }));
    await expectRejected(dir, [
      {
        file: "dev.jsonl",
        line: 6,
        message: `entity "${trainFirst.qid}" is also in the train split (train.jsonl:1); splits are entity-level and must not share entities`,
      },
    ]);
  });

  it("a public (participant) test file in place of the gold one", async () => {
    const dir = await copyRelease();
    await editLine(dir, "test.jsonl", 1, ({ qid: _qid, explicit_text: _explicit, ...rest }) => rest);
    await expectRejected(dir, [{ file: "test.jsonl", line: 1, message: expect.stringMatching(/^missing fields "qid" and "explicit_text": this looks like a public/) }]);
  });

  it("a missing split file", async () => {
    const dir = await copyRelease();
    await rm(path.join(dir, "test.jsonl"));
    await expectRejected(dir, [{ file: "test.jsonl", message: "missing file" }]);
  });

  it("malformed dataset.json, with the line of the error", async () => {
    const dir = await copyRelease();
    await editMeta(dir, () => '{\n  "name": "irc-bench-demo",\n  "version": "1.0"\n  "description": "no comma above"\n}\n');
    await expectRejected(dir, [{ file: "dataset.json", line: 4, message: MALFORMED }]);
  });

  it("dataset.json without a version", async () => {
    const dir = await copyRelease();
    await editMeta(dir, ({ version: _version, ...rest }) => rest);
    await expectRejected(dir, [{ file: "dataset.json", message: 'missing field "version" (expected a string)' }]);
  });

  it("dataset.json with a mistyped field", async () => {
    const dir = await copyRelease();
    await editMeta(dir, (meta) => ({ ...meta, version: 1.1 }));
    await expectRejected(dir, [{ file: "dataset.json", message: 'field "version" must be a string, got a number' }]);
  });

  it("a file with three problems reports all three, in line order", async () => {
    const dir = await copyRelease();
    await editLine(dir, "train.jsonl", 100, (record) => ({ ...record, qid: "Q999999998" }));
    await editLine(dir, "train.jsonl", 2, (record) => JSON.stringify(record).replace(/}$/, ""));
    await editLine(dir, "train.jsonl", 40, ({ implicit_text: _text, ...rest }) => rest);
    await expectRejected(dir, [
      { file: "train.jsonl", line: 2, message: MALFORMED },
      { file: "train.jsonl", line: 40, message: 'missing field "implicit_text" (expected a string)' },
      { file: "train.jsonl", line: 100, message: 'qid "Q999999998" is not in kb.jsonl' },
    ]);
  });

  it("problems in several files are all reported, ordered by file and line", async () => {
    const dir = await copyRelease();
    const { devSecond } = demoFacts();
    await editMeta(dir, ({ description: _description, ...rest }) => rest);
    await editLine(dir, "test.jsonl", 5, ({ collection: _collection, ...rest }) => rest);
    await editLine(dir, "dev.jsonl", 20, (record) => ({ ...record, id: devSecond.id }));
    await editLine(dir, "kb.jsonl", 12, (record) => ({ ...record, type: "person" }));
    await expectRejected(dir, [
      { file: "dataset.json", message: 'missing field "description" (expected a string)' },
      { file: "kb.jsonl", line: 12, message: `field "type" is "person"; expected one of: ${TYPE_LIST}` },
      { file: "dev.jsonl", line: 20, message: `duplicate id "${devSecond.id}" (first seen on line 2)` },
      { file: "test.jsonl", line: 5, message: 'missing field "collection" (expected a string)' },
    ]);
  });

  it("every problem is listed, not only the first ones", async () => {
    const dir = await copyRelease();
    const lines = Array.from({ length: 60 }, (_, index) => index * 2 + 1);
    for (const line of lines) await editLine(dir, "train.jsonl", line, (record) => ({ ...record, collection: "" }));
    await expectRejected(
      dir,
      lines.map((line) => ({ file: "train.jsonl", line, message: 'field "collection": must not be empty or blank' })),
    );
  });
});

describe("[RELEASES] an import that fails half way leaves nothing behind", () => {
  const POISONED_ID = "rel-int-poisoned-sample";

  beforeAll(async () => {
    await resetReleaseTables();
    await importRelease({ dir: DEMO_RELEASE_DIR, activate: true });
  });

  afterEach(async () => {
    await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS rel_int_poison ON "Sample"`);
    await db.$executeRawUnsafe(`DROP FUNCTION IF EXISTS rel_int_poison()`);
  });

  it("a database error on the last sample, after the release, its entities and 254 samples were written, rolls everything back", async () => {
    const dir = await copyRelease();
    await editMeta(dir, (meta) => ({ ...meta, version: "1.0-poisoned" }));
    await editLine(dir, "test.jsonl", demo.samples.test.length, (record) => ({ ...record, id: POISONED_ID }));
    // A trigger that makes one insert impossible, and says how much of the release the transaction had written by then.
    await db.$executeRawUnsafe(`
      CREATE FUNCTION rel_int_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW."sampleId" = '${POISONED_ID}' THEN
          RAISE EXCEPTION 'rel-int poisoned sample: % entities and % samples written',
            (SELECT count(*) FROM "Entity" WHERE "releaseId" = NEW."releaseId"),
            (SELECT count(*) FROM "Sample" WHERE "releaseId" = NEW."releaseId");
        END IF;
        RETURN NEW;
      END $$`);
    await db.$executeRawUnsafe(`CREATE TRIGGER rel_int_poison BEFORE INSERT ON "Sample" FOR EACH ROW EXECUTE FUNCTION rel_int_poison()`);

    const before = await snapshotReleases();
    const failure = await importRelease({ dir, activate: true }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(isAppError(failure)).toBe(false);
    expect(String(failure instanceof Error ? failure.message : failure)).toContain(
      `rel-int poisoned sample: ${demo.entities.length} entities and ${SPLIT_NAMES.reduce((sum, split) => sum + demo.samples[split].length, 0) - 1} samples written`,
    );
    expect(await snapshotReleases()).toEqual(before);
    expect(await db.datasetRelease.count({ where: { version: "1.0-poisoned" } })).toBe(0);
  });

  it("two imports of the same new version at once: one is written whole, the other's unique violation leaves nothing", async () => {
    const dir = await copyRelease();
    await editMeta(dir, (meta) => ({ ...meta, version: "1.0-raced" }));
    const before = await countReleaseRows();
    const results = await Promise.allSettled([importRelease({ dir, activate: false }), importRelease({ dir, activate: false })]);
    const fulfilled = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
    const rejected = results.flatMap((result) => (result.status === "rejected" ? [result.reason as unknown] : []));
    expect(fulfilled).toHaveLength(1);
    expect(fulfilled[0]).toMatchObject({ version: "1.0-raced", outcome: "imported", isActive: false });
    expect(rejected).toHaveLength(1);
    const loser = rejected[0];
    expect(isAppError(loser) ? loser.code : loser).toBe("conflict");
    expect(isAppError(loser) ? loser.message : "").toContain("irc-bench-demo 1.0-raced was imported by another process at the same time");
    expect(await countReleaseRows()).toEqual({
      releases: before.releases + 1,
      entities: before.entities + demo.entities.length,
      samples: before.samples + SPLIT_NAMES.reduce((sum, split) => sum + demo.samples[split].length, 0),
    });
    const raced = await db.datasetRelease.findFirstOrThrow({ where: { version: "1.0-raced" } });
    expect(await db.sample.count({ where: { releaseId: raced.id } })).toBe(255);
  });

  it("a text the database cannot store (a NUL character) is refused at its line and leaves nothing", async () => {
    const dir = await copyRelease();
    await editMeta(dir, (meta) => ({ ...meta, version: "1.0-nul" }));
    // JSON allows \u0000 in a string; PostgreSQL text does not.
    await editLine(dir, "test.jsonl", 3, (record) => ({ ...record, explicit_text: "before\u0000after" }));
    const before = await snapshotReleases();
    await expect(importRelease({ dir, activate: true })).rejects.toMatchObject({
      code: "validation",
      problems: [{ file: "test.jsonl", line: 3, message: expect.stringContaining("NUL") }],
    });
    expect(await snapshotReleases()).toEqual(before);
  });
});

describe("[RELEASES] versions: conflicts, new versions and activation", () => {
  let demoId: string;

  beforeAll(async () => {
    await resetReleaseTables();
    demoId = (await importRelease({ dir: DEMO_RELEASE_DIR, activate: false })).releaseId;
  });

  it("the same name and version with different content is a conflict naming the differing file", async () => {
    const dir = await copyRelease();
    await editLine(dir, "train.jsonl", 1, (record) => ({ ...record, implicit_text: `${String(record.implicit_text)} Edited.` }));
    const before = await snapshotReleases();
    const error = await rejectionOf(importRelease({ dir, activate: true }));
    expect(error.code).toBe("conflict");
    expect(error.message).toContain("irc-bench-demo 1.0");
    expect(error.message).toContain("(train.jsonl differ)");
    expect(await snapshotReleases()).toEqual(before);
  });

  it("a conflict in several files names each of them", async () => {
    const dir = await copyRelease();
    await editMeta(dir, (meta) => ({ ...meta, description: "A different description." }));
    await editLine(dir, "kb.jsonl", 5, (record) => ({ ...record, description: "changed" }));
    await editLine(dir, "test.jsonl", 3, (record) => ({ ...record, explicit_text: "changed" }));
    const before = await snapshotReleases();
    const error = await rejectionOf(importRelease({ dir, activate: true }));
    expect(error.code).toBe("conflict");
    expect(error.message).toContain("(dataset.json, kb.jsonl, test.jsonl differ)");
    expect(await snapshotReleases()).toEqual(before);
  });

  it("a new version is added beside the old one and is not active unless asked", async () => {
    const dir = await copyRelease();
    await editMeta(dir, (meta) => ({ ...meta, version: "1.1" }));
    const result = await importRelease({ dir, activate: false });
    expect(result).toMatchObject({ version: "1.1", outcome: "imported", isActive: false });
    expect(result.releaseId).not.toBe(demoId);
    expect(await countReleaseRows()).toEqual({ releases: 2, entities: 280, samples: 510 });
    const active = await db.datasetRelease.findMany({ where: { isActive: true }, select: { id: true } });
    expect(active).toEqual([{ id: demoId }]);
  });

  it("re-importing that version with activate:true changes nothing but makes it the one active release", async () => {
    const dir = await copyRelease();
    await editMeta(dir, (meta) => ({ ...meta, version: "1.1" }));
    const result = await importRelease({ dir, activate: true });
    expect(result).toMatchObject({ version: "1.1", outcome: "unchanged", isActive: true });
    expect(await countReleaseRows()).toEqual({ releases: 2, entities: 280, samples: 510 });
    const active = await db.datasetRelease.findMany({ where: { isActive: true }, select: { id: true } });
    expect(active).toEqual([{ id: result.releaseId }]);
  });

  it("a new version imported with activate:true becomes the one active release", async () => {
    const dir = await copyRelease();
    await editMeta(dir, (meta) => ({ ...meta, version: "1.2" }));
    const result = await importRelease({ dir, activate: true });
    expect(result).toMatchObject({ version: "1.2", outcome: "imported", isActive: true });
    const releases = await db.datasetRelease.findMany({ select: { version: true, isActive: true }, orderBy: { version: "asc" } });
    expect(releases).toEqual([
      { version: "1.0", isActive: false },
      { version: "1.1", isActive: false },
      { version: "1.2", isActive: true },
    ]);
  });

  it("a new version whose feedback_fraction differs from an earlier version's is refused in one line naming both values and that version, and writes nothing", async () => {
    const dir = await copyRelease();
    await editMeta(dir, (meta) => ({ ...meta, version: "1.3", feedback_fraction: 0.3 }));
    const before = await snapshotReleases();
    const error = await rejectionOf(importRelease({ dir, activate: true }));
    expect(error.code).toBe("conflict");
    expect(error.message).toBe(
      "dataset.json: feedback_fraction is 0.3 in irc-bench-demo 1.3, but the earlier version irc-bench-demo 1.0 has 0.25; it may not change within a release name " +
        "(protocol §12: the slices would reshuffle). Keep 0.25, or give the release a new name.",
    );
    expect(await snapshotReleases()).toEqual(before);
  });
});

describe("[RELEASES] leakage is reported, not rejected", () => {
  beforeAll(async () => {
    await resetReleaseTables();
    await importRelease({ dir: DEMO_RELEASE_DIR, activate: true });
  });

  it("finds an implicit text naming its entity or an alias (case-insensitive, whole word) and stores the findings", async () => {
    const dir = await copyRelease();
    await editMeta(dir, (meta) => ({ ...meta, version: "1.0-leaky" }));
    const { trainFirst, devSecond } = demoFacts();
    const byQid = entityByQid(demo);
    const trainEntity = byQid.get(trainFirst.qid);
    const devEntity = byQid.get(devSecond.qid);
    const testSample = demo.samples.test[2];
    const testEntity = byQid.get(testSample?.qid ?? "");
    if (!trainEntity || !devEntity || !testEntity || !testSample) throw new Error("demo entities missing");
    const alias = devEntity.aliases.at(-1);
    if (alias === undefined) throw new Error(`${devEntity.qid} has no alias to leak`);
    await editLine(dir, "train.jsonl", 1, (record) => ({ ...record, implicit_text: `${String(record.implicit_text)} I never saw ${trainEntity.name.toUpperCase()} again.` }));
    await editLine(dir, "dev.jsonl", 2, (record) => ({ ...record, implicit_text: `${String(record.implicit_text)} We all knew ${alias.toLowerCase()} then.` }));
    // Inside a longer word: not a whole-word match, so not a finding.
    await editLine(dir, "test.jsonl", 3, (record) => ({ ...record, implicit_text: `${String(record.implicit_text)} The ${testEntity.name.split(" ")[0]}ian school.` }));

    const result = await importRelease({ dir, activate: false });
    const findings = [
      { file: "train.jsonl", line: 1, id: trainFirst.id, qid: trainFirst.qid, matched: trainEntity.name },
      { file: "dev.jsonl", line: 2, id: devSecond.id, qid: devSecond.qid, matched: alias },
    ];
    expect(result).toMatchObject({ outcome: "imported", isActive: false });
    expect(result.leakage).toEqual(findings);
    const stored = await db.datasetRelease.findUniqueOrThrow({ where: { id: result.releaseId } });
    expect(stored.leakage).toEqual({ count: 2, findings });
    expect(await db.sample.count({ where: { releaseId: result.releaseId } })).toBe(255);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

type CliResult = { code: number | null; stdout: string; stderr: string };

function runImportCli(args: readonly string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["tsx", "--conditions=react-server", "scripts/ops/dataset-import.ts", ...args], {
      cwd: REPO_ROOT,
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("[RELEASES] the dataset:import command", () => {
  beforeAll(async () => {
    await resetReleaseTables();
    await importRelease({ dir: DEMO_RELEASE_DIR, activate: true });
  });

  it("prints DIR/FILE:LINE: message per problem on stderr, exits 1 and writes nothing", async () => {
    const dir = await copyRelease();
    const { trainFirst } = demoFacts();
    await editMeta(dir, (meta) => ({ ...meta, version: "1.0-cli" }));
    await editLine(dir, "kb.jsonl", 10, (record) => ({ ...record, type: "Planet" }));
    await editLine(dir, "train.jsonl", 5, (record) => JSON.stringify(record).slice(0, -1));
    await editLine(dir, "dev.jsonl", 6, (record) => ({ ...record, qid: trainFirst.qid }));
    const before = await snapshotReleases();
    const result = await runImportCli([dir, "--no-baselines"]);
    expect(result.code, result.stderr).toBe(1);
    const lines = result.stderr.split("\n").filter((line) => line !== "");
    expect(lines).toEqual([
      `${dir}/kb.jsonl:10: field "type" is "Planet"; expected one of: ${TYPE_LIST}`,
      expect.stringMatching(new RegExp(`^${escapeRegExp(`${dir}/train.jsonl:5: malformed JSON: `)}`)),
      `${dir}/dev.jsonl:6: entity "${trainFirst.qid}" is also in the train split (train.jsonl:1); splits are entity-level and must not share entities`,
      `The release in ${dir} was rejected: 3 problem(s). Nothing was written.`,
    ]);
    expect(await snapshotReleases()).toEqual(before);
  });

  it("exits 2 with the usage on a usage error", async () => {
    const missing = await runImportCli([]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Usage: npm run dataset:import -- DIR");
    const unknown = await runImportCli(["--bogus", DEMO_RELEASE_DIR]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Usage: npm run dataset:import -- DIR");
  });
});
