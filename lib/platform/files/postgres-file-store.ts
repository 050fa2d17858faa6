import "server-only";
import { createReadStream } from "node:fs";
import { db } from "@/lib/platform/db";
import type { Prisma } from "@/lib/platform/generated/prisma";
import { StoredFileMissingError, assertSha256, type FileStore } from "@/lib/platform/files/store-contract";
import type { StagedFile } from "@/lib/platform/files/staging";

/** Bytes per StoredFileChunk row: big enough for few round trips, small enough to hold one at a time. */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * Prediction files as rows of the application's database: a StoredFile per
 * distinct content and its bytes in StoredFileChunk rows of at most 1 MiB,
 * written and read one chunk at a time.
 */
export class PostgresFileStore implements FileStore {
  readonly kind = "postgres" as const;

  async put(staged: StagedFile, tx: Prisma.TransactionClient): Promise<void> {
    assertSha256(staged.sha256);
    // Refreshing lastUsedAt locks the row, so the sweeper cannot delete these
    // bytes between this check and the caller's commit. (xmax = 0): this
    // statement inserted the row, so its chunks are ours to write.
    const rows = await tx.$queryRaw<{ isNew: boolean }[]>`
      INSERT INTO "StoredFile" ("sha256", "bytes", "chunkCount") VALUES (${staged.sha256}, ${staged.bytes}, 0)
      ON CONFLICT ("sha256") DO UPDATE SET "lastUsedAt" = now()
      RETURNING (xmax = 0) AS "isNew"`;
    if (!rows[0]?.isNew) return;
    let index = 0;
    for await (const chunk of createReadStream(staged.tempPath, { highWaterMark: CHUNK_BYTES })) {
      await tx.$executeRaw`INSERT INTO "StoredFileChunk" ("sha256", "index", "data") VALUES (${staged.sha256}, ${index}, ${chunk as Buffer})`;
      index += 1;
    }
    await tx.$executeRaw`UPDATE "StoredFile" SET "chunkCount" = ${index} WHERE "sha256" = ${staged.sha256}`;
  }

  async has(sha256: string): Promise<boolean> {
    return (await db.storedFile.count({ where: { sha256 } })) > 0;
  }

  async *read(sha256: string): AsyncGenerator<Uint8Array, void, undefined> {
    const file = await db.storedFile.findUnique({ where: { sha256 }, select: { chunkCount: true } });
    if (!file) throw new StoredFileMissingError(sha256, "PostgreSQL");
    for (let index = 0; index < file.chunkCount; index += 1) {
      // As base64 text: the driver adapter's bytea decoding took ~60 ms per MiB (a 5.6 MB file ~340 ms of the
      // worker's scoring), base64 ~10 ms (benchmarks: npm run bench:upload-http).
      const rows = await db.$queryRaw<{ data: string }[]>`
        SELECT encode("data", 'base64') AS "data" FROM "StoredFileChunk" WHERE "sha256" = ${sha256} AND "index" = ${index}`;
      const chunk = rows[0];
      if (!chunk) throw new StoredFileMissingError(sha256, "PostgreSQL");
      // PostgreSQL breaks base64 into lines of 76 characters; Node's decoder skips the line breaks.
      yield Buffer.from(chunk.data, "base64");
    }
  }

  async sweepUnreferenced(olderThan: Date): Promise<number> {
    // One statement: an upload that refreshed lastUsedAt holds the row's lock,
    // so this waits for it and then sees the fresh time and keeps the file.
    // Chunks go with their file (ON DELETE CASCADE).
    return db.$executeRaw`
      DELETE FROM "StoredFile" AS f
      WHERE f."lastUsedAt" < ${olderThan}
        AND NOT EXISTS (SELECT 1 FROM "Submission" AS s WHERE s."fileSha256" = f."sha256")`;
  }
}
