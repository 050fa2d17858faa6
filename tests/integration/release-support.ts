import { createHash } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { db } from "@/lib/platform/db";
import { assertTestDatabase } from "@/testing/local-database";

/**
 * Fixtures for the release import and download suites: copies of the bundled
 * demo release in temporary directories, line-level edits to corrupt them one
 * thing at a time, an independent reader of release files (plain JSON.parse,
 * not the importer's code) and row counts of the release tables.
 */

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const DEMO_RELEASE_DIR = path.join(REPO_ROOT, "data", "demo-release");

export type RawEntity = {
  qid: string;
  name: string;
  type: string;
  aliases: string[];
  description: string;
  description_wiki: string;
};

export type RawSample = {
  id: string;
  qid: string;
  collection: string;
  implicit_text: string;
  explicit_text: string;
};

export type RawMeta = { name: string; version: string; description: string };

export type RawRelease = {
  meta: RawMeta;
  entities: RawEntity[];
  samples: { train: RawSample[]; dev: RawSample[]; test: RawSample[] };
};

export type SplitName = keyof RawRelease["samples"];
export const SPLIT_NAMES: readonly SplitName[] = ["train", "dev", "test"];

/** Refuses anything but a local database whose name ends in _test, then empties the release tables (and all that hangs off them). */
export async function resetReleaseTables(): Promise<void> {
  assertTestDatabase();
  await db.$executeRawUnsafe(`TRUNCATE TABLE "DatasetRelease" CASCADE`);
}

export type ReleaseRowCounts = { releases: number; entities: number; samples: number };

export async function countReleaseRows(): Promise<ReleaseRowCounts> {
  const [releases, entities, samples] = await Promise.all([db.datasetRelease.count(), db.entity.count(), db.sample.count()]);
  return { releases, entities, samples };
}

export type ReleaseSnapshot = { counts: ReleaseRowCounts; releases: { id: string; name: string; version: string; isActive: boolean }[] };

/** Row counts plus every release's identity and active flag, to compare before and after an import. */
export async function snapshotReleases(): Promise<ReleaseSnapshot> {
  const releases = await db.datasetRelease.findMany({
    select: { id: true, name: true, version: true, isActive: true },
    orderBy: [{ name: "asc" }, { version: "asc" }],
  });
  return { counts: await countReleaseRows(), releases };
}

const tempDirs: string[] = [];

/** A fresh copy of a release directory (the demo release by default) in a temporary directory. */
export async function copyRelease(source: string = DEMO_RELEASE_DIR): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "irc-rel-int-"));
  tempDirs.push(dir);
  await cp(source, dir, { recursive: true });
  return dir;
}

/** An empty temporary directory, removed by removeTempDirs(). */
export async function makeTempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "irc-rel-int-"));
  tempDirs.push(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  const dirs = tempDirs.splice(0, tempDirs.length);
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
}

/** The lines of a text file without their "\n" (no trailing empty line). */
export async function readLines(file: string): Promise<string[]> {
  const text = await readFile(file, "utf8");
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

async function writeLines(file: string, lines: readonly string[]): Promise<void> {
  await writeFile(file, lines.map((line) => `${line}\n`).join(""), "utf8");
}

export type JsonRecord = Record<string, unknown>;

function parseRecord(text: string, where: string): JsonRecord {
  const value: unknown = JSON.parse(text);
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Error(`${where} is not a JSON object`);
  return value as JsonRecord;
}

/**
 * Replaces line `line` (1-based) of a release file: `edit` gets the parsed
 * object and returns a new object, or a raw string to write as is.
 */
export async function editLine(dir: string, file: string, line: number, edit: (record: JsonRecord) => JsonRecord | string): Promise<void> {
  const target = path.join(dir, file);
  const lines = await readLines(target);
  const current = lines[line - 1];
  if (current === undefined) throw new Error(`${file} has no line ${line}`);
  const next = edit(parseRecord(current, `${file}:${line}`));
  lines[line - 1] = typeof next === "string" ? next : JSON.stringify(next);
  await writeLines(target, lines);
}

/** Appends one line (an object or a raw string) to a release file; returns its 1-based line number. */
export async function appendLine(dir: string, file: string, content: JsonRecord | string): Promise<number> {
  const target = path.join(dir, file);
  const lines = await readLines(target);
  lines.push(typeof content === "string" ? content : JSON.stringify(content));
  await writeLines(target, lines);
  return lines.length;
}

export async function editMeta(dir: string, edit: (meta: JsonRecord) => JsonRecord | string): Promise<void> {
  const target = path.join(dir, "dataset.json");
  const next = edit(parseRecord(await readFile(target, "utf8"), "dataset.json"));
  await writeFile(target, typeof next === "string" ? next : `${JSON.stringify(next, null, 2)}\n`, "utf8");
}

/** Every non-blank line of a JSONL file, parsed with JSON.parse only. */
export async function readJsonl(file: string): Promise<JsonRecord[]> {
  const lines = await readLines(file);
  return lines.filter((line) => line.trim() !== "").map((line, index) => parseRecord(line, `${file}:${index + 1}`));
}

/** A release directory read independently of lib/core/dataset: JSON.parse per line, nothing validated. */
export async function readReleaseFiles(dir: string): Promise<RawRelease> {
  const meta = parseRecord(await readFile(path.join(dir, "dataset.json"), "utf8"), "dataset.json") as RawMeta;
  const entities = (await readJsonl(path.join(dir, "kb.jsonl"))) as RawEntity[];
  const samples = {
    train: (await readJsonl(path.join(dir, "train.jsonl"))) as RawSample[],
    dev: (await readJsonl(path.join(dir, "dev.jsonl"))) as RawSample[],
    test: (await readJsonl(path.join(dir, "test.jsonl"))) as RawSample[],
  };
  return { meta, entities, samples };
}

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export function entityByQid(release: RawRelease): Map<string, RawEntity> {
  return new Map(release.entities.map((entity) => [entity.qid, entity]));
}
