import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { KB_FILE, META_FILE, SPLIT_FILES, type EntityType, type Split } from "@/lib/core/dataset/release-constants";
import { resolveReleaseFile } from "@/lib/platform/io/resolve-release-file";
import type { ScoringSample } from "@/lib/platform/io/read-scoring-release";
import type { SampleOutcomes } from "@/lib/core/scoring/outcome-codes";

/**
 * The offline scorer's cache (scripts/participant/score.ts), two kinds of entry.
 *
 * Every key includes the SHA-256 of the running scorer's own code (the bundle): another build, whose
 * validation or scoring may differ, never reads this one's entries.
 *
 * A release it has read and validated before: what scoring keeps of the KB and the split's gold, in
 * one JSON file named by the SHA-256 of the release's own bytes. A later run
 * on the same files hashes them (a few milliseconds) and reads that file
 * instead of parsing and checking kb.jsonl and the split line by line. Any
 * change to dataset.json, kb.jsonl or the split file, even one byte, gives
 * another key, so a stale entry is never read: the run then validates the
 * release in full, as the first run did. Only a release that passed that
 * validation is ever written. The cache lives in IRC_BENCH_CACHE_DIR, or else
 * $XDG_CACHE_HOME/irc-bench (~/.cache/irc-bench); `--no-cache` skips it.
 * It keeps the MAX_CACHE_ENTRIES entries written last.
 *
 * A closed-track baseline file's outcomes (one code per sample, what the server stores of a
 * baseline), once the scanner has read those very bytes as a valid file of the release: keyed by
 * the SHA-256 of the release's key and the file's bytes, so a later run with the same baseline
 * hashes it (about 3 ms for a full-size file) instead of parsing and checking it. Another byte,
 * another release or another build is another key; an entry whose codes do not match the checksum
 * stored with them is a miss. It keeps the MAX_OUTCOME_ENTRIES entries written last.
 *
 * A cache that cannot be read or written is no error: the run reads the files.
 */

/** Release entries kept: the oldest beyond these are removed when one is written (each is about 1 MB for the full-size test split). */
export const MAX_CACHE_ENTRIES = 8;

/** Baseline outcome entries kept (each about 6 KB for the full-size test split). */
export const MAX_OUTCOME_ENTRIES = 256;

/** Part of every key: a change of what is kept, or of how the release is checked, must not read old entries. */
const CACHE_FORMAT = "irc-bench-score-release-cache 2";

let build: string | null | undefined;

/**
 * The SHA-256 of the running scorer's own code (the bundle, this module's file in it), read once:
 * SCORER_VERSION names the scoring rules, but a build may also change what validation accepts.
 * Null when the file cannot be read: the run then keeps no cache.
 */
function scorerBuild(): string | null {
  if (build !== undefined) return build;
  try {
    build = createHash("sha256").update(readFileSync(fileURLToPath(import.meta.url))).digest("hex");
  } catch {
    build = null;
  }
  return build;
}

/** An entity as scoring needs it (buildKbIndex), and a gold sample (buildGold). */
export type CachedEntity = { qid: string; name: string; type: EntityType; aliases: string[] };
export type CachedRelease = { entities: CachedEntity[]; samples: ScoringSample[] };

/** Compact on disk: one array per entity and per sample. */
type CacheFile = {
  format: string;
  key: string;
  entities: [string, string, EntityType, string[]][];
  samples: [string, string, string][];
};

export function scoreCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.IRC_BENCH_CACHE_DIR;
  if (explicit !== undefined && explicit.length > 0) return explicit;
  const base = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME.length > 0 ? env.XDG_CACHE_HOME : path.join(homedir(), ".cache");
  return path.join(base, "irc-bench");
}

async function bytesOrNull(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch {
    return null;
  }
}

/**
 * The key of a release for one split: SHA-256 over the cache format, the
 * split, and each file the scorer reads (dataset.json, kb.jsonl, the split
 * file) by its name as resolved, its length and its bytes. Null when a file
 * cannot be read; the caller then reads the release the usual way, which says why.
 */
export async function releaseCacheKey(dir: string, split: Split): Promise<string | null> {
  const [kb, splitFile] = await Promise.all([resolveReleaseFile(dir, KB_FILE, true), resolveReleaseFile(dir, SPLIT_FILES[split], true)]);
  if (!kb.ok || !splitFile.ok) return null;
  const names = [META_FILE, kb.name, splitFile.name];
  const contents = await Promise.all(names.map((name) => bytesOrNull(path.join(dir, name))));
  const scorer = scorerBuild();
  if (scorer === null) return null;
  const hash = createHash("sha256").update(`${CACHE_FORMAT}\0${scorer}\0${split}\0`);
  for (const [i, name] of names.entries()) {
    const bytes = contents[i] ?? null;
    // dataset.json is optional (a folder of downloads); its absence is part of the key.
    if (bytes === null && name !== META_FILE) return null;
    hash.update(`${name}\0${bytes === null ? "absent" : bytes.length}\0`);
    if (bytes !== null) hash.update(bytes);
  }
  return hash.digest("hex");
}

/** The two kinds of entry: a file name prefix, and how many of the newest are kept. */
type EntryKind = { prefix: string; keep: number };
const RELEASE_ENTRY: EntryKind = { prefix: "release-", keep: MAX_CACHE_ENTRIES };
const OUTCOMES_ENTRY: EntryKind = { prefix: "outcomes-", keep: MAX_OUTCOME_ENTRIES };

function entryFileOf(cacheDir: string, kind: EntryKind, key: string): string {
  return path.join(cacheDir, `${kind.prefix}${key}.json`);
}

/** Writes an entry to a temporary file and renames it, so a reader sees all of it or none; then drops the oldest beyond the kind's count. */
async function writeEntry(cacheDir: string, kind: EntryKind, key: string, content: unknown): Promise<void> {
  const target = entryFileOf(cacheDir, kind, key);
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    await mkdir(cacheDir, { recursive: true });
    await writeFile(temporary, JSON.stringify(content));
    await rename(temporary, target);
    await removeOldEntries(cacheDir, kind);
  } catch {
    // A read-only or full disk only costs the next run its shortcut.
    await rm(temporary, { force: true }).catch(() => undefined);
  }
}

function isCacheFile(value: unknown, key: string): value is CacheFile {
  if (typeof value !== "object" || value === null) return false;
  const file = value as Partial<CacheFile>;
  return file.format === CACHE_FORMAT && file.key === key && Array.isArray(file.entities) && Array.isArray(file.samples);
}

/** The cached release of this key, or null (no entry, or one that is not a whole cache file of this format and key). */
export async function readReleaseCache(cacheDir: string, key: string): Promise<CachedRelease | null> {
  const bytes = await bytesOrNull(entryFileOf(cacheDir, RELEASE_ENTRY, key));
  if (bytes === null) return null;
  let file: unknown;
  try {
    file = JSON.parse(bytes.toString("utf8"));
  } catch {
    return null;
  }
  if (!isCacheFile(file, key)) return null;
  return {
    entities: file.entities.map(([qid, name, type, aliases]) => ({ qid, name, type, aliases })),
    samples: file.samples.map(([id, qid, collection]) => ({ id, qid, collection })),
  };
}

/** Stores a validated release under its key. */
export async function writeReleaseCache(cacheDir: string, key: string, release: CachedRelease): Promise<void> {
  const file: CacheFile = {
    format: CACHE_FORMAT,
    key,
    entities: release.entities.map((entity) => [entity.qid, entity.name, entity.type, [...entity.aliases]]),
    samples: release.samples.map((sample) => [sample.id, sample.qid, sample.collection]),
  };
  await writeEntry(cacheDir, RELEASE_ENTRY, key, file);
}

/** Removes all but the newest entries of one kind (by modification time). */
async function removeOldEntries(cacheDir: string, { prefix, keep }: EntryKind): Promise<void> {
  const names = (await readdir(cacheDir)).filter((name) => name.startsWith(prefix) && name.endsWith(".json"));
  if (names.length <= keep) return;
  const entries = await Promise.all(names.map(async (name) => ({ name, mtimeMs: (await stat(path.join(cacheDir, name))).mtimeMs })));
  entries.sort((a, b) => b.mtimeMs - a.mtimeMs);
  await Promise.all(entries.slice(keep).map((entry) => rm(path.join(cacheDir, entry.name), { force: true })));
}

/** Part of every baseline key (the release's key holds the build and the split). */
const OUTCOMES_FORMAT = "irc-bench-score-baseline-outcomes 1";

/** The codes in base64, and their SHA-256. */
type OutcomesFile = { format: string; key: string; track: SampleOutcomes["track"]; codes: string; sha256: string };

const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The key of a baseline file's outcomes under one release (its releaseCacheKey): SHA-256 over the format, that key and the bytes. */
export function baselineOutcomesKey(releaseKey: string, bytes: Uint8Array): string {
  return createHash("sha256").update(`${OUTCOMES_FORMAT}\0${releaseKey}\0${bytes.length}\0`).update(bytes).digest("hex");
}

/**
 * The cached outcomes of this key, or null (no entry, or one that is not a whole entry of this
 * format and key with codes of its checksum; the caller checks their length against the split).
 * Synchronous: a scan thread reads it between file reads.
 */
export function readBaselineOutcomes(cacheDir: string, key: string): SampleOutcomes | null {
  let file: Partial<OutcomesFile>;
  try {
    file = JSON.parse(readFileSync(entryFileOf(cacheDir, OUTCOMES_ENTRY, key), "utf8")) as Partial<OutcomesFile>;
  } catch {
    return null;
  }
  if (file.format !== OUTCOMES_FORMAT || file.key !== key || (file.track !== "open" && file.track !== "closed") || typeof file.codes !== "string") return null;
  const codes = new Uint8Array(Buffer.from(file.codes, "base64"));
  return sha256Of(codes) === file.sha256 ? { track: file.track, codes } : null;
}

/** Stores a validated baseline's outcomes under its key. */
export async function writeBaselineOutcomes(cacheDir: string, key: string, outcomes: SampleOutcomes): Promise<void> {
  const codes = Buffer.from(outcomes.codes);
  const file: OutcomesFile = { format: OUTCOMES_FORMAT, key, track: outcomes.track, codes: codes.toString("base64"), sha256: sha256Of(codes) };
  await writeEntry(cacheDir, OUTCOMES_ENTRY, key, file);
}
