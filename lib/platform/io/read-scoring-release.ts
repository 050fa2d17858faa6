import { readFile } from "node:fs/promises";
import path from "node:path";
import { KB_FILE, META_FILE, SPLIT_FILES, type Split } from "@/lib/core/dataset/release-constants";
import { resolveReleaseFile } from "@/lib/platform/io/resolve-release-file";
import type { Entity, Sample } from "@/lib/core/dataset/release-schema";
import { scanKbLines, scanSampleLines } from "@/lib/core/dataset/scan-release-lines";

/**
 * The command-line scorer's quick read of a release (protocol sections 2 and
 * 11): dataset.json (optional, as for a folder of downloads), kb.jsonl and
 * one split file, each read whole and parsed by scan-release-lines.ts. It
 * answers the entities and samples that readRelease(dir, { splits: [split],
 * isMetaOptional: true, ... }) would answer when the release is valid and of
 * the common form; otherwise null, and the caller reads it with
 * readRelease, which reports every problem with its file and line.
 */

/** What scoring needs of a sample (buildGold): the rest of the line is checked, not kept. */
export type ScoringSample = Pick<Sample, "id" | "qid" | "collection">;
type ScoringRelease = { entities: Entity[]; samples: ScoringSample[] };

const MAX_MIN_GROUP_N = 1_000_000;
const MAX_ENTRIES_PER_ACCOUNT = 1000;

function isNonBlank(value: unknown): boolean {
  return typeof value === "string" && !value.includes("\u0000") && value.trim().length > 0;
}

/** datasetMetaSchema, by hand: true only for what it accepts. */
function isWellFormedMeta(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const meta = value as Record<string, unknown>;
  if (!isNonBlank(meta.name) || !isNonBlank(meta.version) || typeof meta.description !== "string") return false;
  return (
    isOptionalInteger(meta, "min_group_n", 1, MAX_MIN_GROUP_N) &&
    isOptionalInteger(meta, "max_entries_per_account", 1, MAX_ENTRIES_PER_ACCOUNT) &&
    (!Object.hasOwn(meta, "feedback_fraction") || (typeof meta.feedback_fraction === "number" && meta.feedback_fraction > 0 && meta.feedback_fraction <= 0.5))
  );
}

function isOptionalInteger(meta: Record<string, unknown>, key: string, min: number, max: number): boolean {
  if (!Object.hasOwn(meta, key)) return true;
  const value = meta[key];
  return typeof value === "number" && Number.isSafeInteger(value) && value >= min && value <= max;
}

async function isMetaAcceptable(dir: string): Promise<boolean> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path.join(dir, META_FILE));
  } catch (error) {
    // No dataset.json is fine for a folder of downloads; anything else is readRelease's to report.
    return error instanceof Error && "code" in error && error.code === "ENOENT";
  }
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    return isWellFormedMeta(JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text));
  } catch {
    return false;
  }
}

async function readReleaseBytes(dir: string, file: typeof KB_FILE | (typeof SPLIT_FILES)[Split]): Promise<Buffer | null> {
  const resolution = await resolveReleaseFile(dir, file, true);
  if (!resolution.ok) return null;
  try {
    return await readFile(path.join(dir, resolution.name));
  } catch {
    return null;
  }
}

/** dataset.json (when present) and kb.jsonl: the entities, or null. */
export async function readScoringKb(dir: string): Promise<Entity[] | null> {
  const [isMetaOk, kbBytes] = await Promise.all([isMetaAcceptable(dir), readReleaseBytes(dir, KB_FILE)]);
  return isMetaOk && kbBytes !== null ? scanKbLines(kbBytes) : null;
}

/**
 * The split file, every line checked as readRelease checks it except that
 * its qid is in the KB (joinScoringRelease checks that): what a scan thread
 * reads while the main thread reads the KB. Null when it is not of the
 * common, valid form.
 */
export async function readScoringSplit(dir: string, split: Split): Promise<ScoringSample[] | null> {
  const splitBytes = await readReleaseBytes(dir, SPLIT_FILES[split]);
  const samples = splitBytes === null ? null : scanSampleLines(splitBytes, null);
  return samples === null ? null : samples.map(({ id, qid, collection }) => ({ id, qid, collection }));
}

/** The two halves together, or null when a sample's qid is not in the KB. */
export function joinScoringRelease(entities: Entity[], samples: ScoringSample[]): ScoringRelease | null {
  const kbQids = new Set(entities.map((entity) => entity.qid));
  return samples.every((sample) => kbQids.has(sample.qid)) ? { entities, samples } : null;
}
