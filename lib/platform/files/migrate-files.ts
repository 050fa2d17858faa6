import "server-only";
import { Readable } from "node:stream";
import { db } from "@/lib/platform/db";
import { StoredFileMissingError, type FileStore } from "@/lib/platform/files/store-contract";
import { discardStagedFile, stageUpload } from "@/lib/platform/files/staging";

type MigrationResult = {
  /** Files copied into the target store. */
  copied: string[];
  /** Files the target store held already (a second run copies nothing). */
  present: string[];
  /** Files neither store holds: their submissions cannot be scored again. */
  missing: string[];
  /** Files whose bytes in the source no longer hash to their address: not copied. */
  corrupt: string[];
};

/**
 * Copies the prediction file of every submission from one store to another
 * (disk -> postgres after upgrading, say), one file at a time and streamed.
 * Idempotent: what the target holds is left alone. Each copy is re-hashed on
 * the way, so a damaged source file is reported instead of stored under an
 * address it does not have.
 */
export async function migrateFiles(source: FileStore, target: FileStore, options: { log?: (line: string) => void } = {}): Promise<MigrationResult> {
  const log = options.log ?? (() => undefined);
  const rows = await db.submission.findMany({ distinct: ["fileSha256"], select: { fileSha256: true }, orderBy: { fileSha256: "asc" } });
  const result: MigrationResult = { copied: [], present: [], missing: [], corrupt: [] };
  for (const { fileSha256: sha256 } of rows) {
    if (await target.has(sha256)) {
      result.present.push(sha256);
      continue;
    }
    let staged;
    try {
      staged = await stageUpload(Readable.from(source.read(sha256)), Number.MAX_SAFE_INTEGER);
    } catch (error) {
      if (!(error instanceof StoredFileMissingError)) throw error;
      result.missing.push(sha256);
      log(`missing: ${sha256} is in neither the ${source.kind} nor the ${target.kind} store`);
      continue;
    }
    try {
      if (staged.sha256 !== sha256) {
        result.corrupt.push(sha256);
        log(`corrupt: the ${source.kind} copy of ${sha256} hashes to ${staged.sha256}; not copied`);
        continue;
      }
      const file = staged;
      await db.$transaction((tx) => target.put(file, tx), { timeout: 120_000 });
      result.copied.push(sha256);
      log(`copied: ${sha256} (${file.bytes} bytes)`);
    } finally {
      await discardStagedFile(staged);
    }
  }
  return result;
}
