import { readFile } from "node:fs/promises";
import path from "node:path";
import { KB_FILE, META_FILE, SPLIT_FILES, type Split } from "@/lib/dataset/release-constants";
import { resolveReleaseFile } from "@/lib/dataset/resolve-release-file";
import type { Entity, Sample } from "@/lib/dataset/release-schema";
import { scanKbLines, scanSampleLines } from "@/lib/dataset/scan-release-lines";

/**
 * The command-line scorer's quick read of a release (protocol sections 2 and
 * 11): dataset.json (optional, as for a folder of downloads), kb.jsonl and
 * one split file, each read whole and parsed by scan-release-lines.ts. It
 * answers the entities and samples that readRelease(dir, { splits: [split],
 * isMetaOptional: true, ... }) would answer when the release is valid and of
 * the common form; otherwise null, and the caller reads it with
 * readRelease, which reports every problem with its file and line.
 */

export type ScoringRelease = { entities: Entity[]; samples: Sample[] };

const MAX_MIN_GROUP_N = 1_000_000;

function isNonBlank(value: unknown): boolean {
  return typeof value === "string" && !value.includes("\u0000") && value.trim().length > 0;
}

/** datasetMetaSchema, by hand: true only for what it accepts. */
function isWellFormedMeta(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const meta = value as Record<string, unknown>;
  if (!isNonBlank(meta.name) || !isNonBlank(meta.version) || typeof meta.description !== "string") return false;
  if (!Object.hasOwn(meta, "min_group_n")) return true;
  const minGroupN = meta.min_group_n;
  return typeof minGroupN === "number" && Number.isSafeInteger(minGroupN) && minGroupN >= 1 && minGroupN <= MAX_MIN_GROUP_N;
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

export async function readScoringRelease(dir: string, split: Split): Promise<ScoringRelease | null> {
  const [isMetaOk, kbBytes, splitBytes] = await Promise.all([
    isMetaAcceptable(dir),
    readReleaseBytes(dir, KB_FILE),
    readReleaseBytes(dir, SPLIT_FILES[split]),
  ]);
  if (!isMetaOk || kbBytes === null || splitBytes === null) return null;
  const entities = scanKbLines(kbBytes);
  if (entities === null) return null;
  const samples = scanSampleLines(splitBytes, new Set(entities.map((entity) => entity.qid)));
  return samples === null ? null : { entities, samples };
}
