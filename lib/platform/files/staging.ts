import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import { getEnv } from "@/lib/platform/env";
import { AppError } from "@/lib/core/errors";
import { formatBytes } from "@/lib/core/format/bytes";

/**
 * An upload is first streamed to a temporary file on the receiving machine
 * (IRC_DATA_DIR/staging/<uuid>.part), hashed and counted as it goes and
 * refused past the size limit before any parsing. Pre-flight reads it there;
 * createSubmission then hands it to the file store (file-store.ts) inside the
 * transaction that records the submission, and the staged file is removed
 * whatever happened. Staged files are never shared between machines.
 */
export type StagedFile = { tempPath: string; sha256: string; bytes: number };

/** A staged file older than this belongs to no request any more (a crashed process): the sweeper removes it. */
export const STAGED_FILE_MAX_AGE_MS = 60 * 60 * 1000;

export function stagingDir(): string {
  return path.resolve(getEnv().IRC_DATA_DIR, "staging");
}

export function tooLargeError(maxBytes: number): AppError {
  return new AppError("payload_too_large", `The file is larger than the ${formatBytes(maxBytes)} limit. Nothing was scored and no quota was used.`);
}

/** Streams `source` to a temporary file, refusing it once it exceeds `maxBytes`. */
export async function stageUpload(source: Readable, maxBytes: number): Promise<StagedFile> {
  const tempDir = stagingDir();
  await mkdir(tempDir, { recursive: true });
  const tempPath = path.join(tempDir, `${randomUUID()}.part`);
  const hash = createHash("sha256");
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        callback(tooLargeError(maxBytes));
        return;
      }
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(tempPath));
  } catch (error) {
    await rm(tempPath, { force: true });
    throw error;
  }
  return { tempPath, sha256: hash.digest("hex"), bytes };
}

export async function discardStagedFile(staged: StagedFile): Promise<void> {
  await rm(staged.tempPath, { force: true });
}

/**
 * Removes staged files older than `maxAgeMs` (left by a process that was
 * killed while receiving or checking an upload). Returns how many it removed.
 */
export async function sweepStagedFiles(maxAgeMs = STAGED_FILE_MAX_AGE_MS, now = Date.now()): Promise<number> {
  const names = await readdir(stagingDir()).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith(".part")) continue;
    const file = path.join(stagingDir(), name);
    const info = await stat(file).catch(() => null);
    if (!info || now - info.mtimeMs < maxAgeMs) continue;
    await rm(file, { force: true });
    removed += 1;
  }
  return removed;
}
