import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { formatBytes } from "@/lib/format/bytes";

/**
 * Prediction files are kept byte for byte, content-addressed by SHA-256 under
 * IRC_DATA_DIR/submissions/ab/abcdef....jsonl. An upload is first streamed to a
 * temporary file (hashing and counting as it goes, refusing past the size
 * limit before any parsing), then moved into place.
 */
export type StagedFile = { tempPath: string; sha256: string; bytes: number };

function storeRoot(): string {
  return path.resolve(getEnv().IRC_DATA_DIR, "submissions");
}

export function storedFilePath(sha256: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a SHA-256: ${sha256}`);
  return path.join(storeRoot(), sha256.slice(0, 2), `${sha256}.jsonl`);
}

export function tooLargeError(maxBytes: number): AppError {
  return new AppError("payload_too_large", `The file is larger than the ${formatBytes(maxBytes)} limit. Nothing was scored and no quota was used.`);
}

/** Streams `source` to a temporary file, refusing it once it exceeds `maxBytes`. */
export async function stageUpload(source: Readable, maxBytes: number): Promise<StagedFile> {
  const tempDir = path.join(storeRoot(), "tmp");
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

/** Moves a staged file to its content address (a no-op when those bytes are already stored). */
export async function commitStagedFile(staged: StagedFile): Promise<string> {
  const target = storedFilePath(staged.sha256);
  await mkdir(path.dirname(target), { recursive: true });
  const exists = await stat(target).then(
    () => true,
    () => false,
  );
  if (exists) {
    await rm(staged.tempPath, { force: true });
  } else {
    await rename(staged.tempPath, target);
  }
  return target;
}

export async function discardStagedFile(staged: StagedFile): Promise<void> {
  await rm(staged.tempPath, { force: true });
}
