import "server-only";
import type { Env } from "@/lib/platform/env";
import type { Prisma } from "@/lib/platform/generated/prisma";
import type { StagedFile } from "@/lib/platform/files/staging";

/** What every file store implements (file-store.ts picks one); its own file, so the stores need not import the factory. */
export type FileStoreKind = Env["IRC_FILE_STORE"];

export interface FileStore {
  readonly kind: FileStoreKind;
  /**
   * Stores the staged bytes under their SHA-256 (a no-op when that content is
   * stored already). The PostgreSQL store writes through `tx`, so the file
   * commits with the caller's transaction or not at all; the others write
   * before the caller commits, and a rolled-back commit leaves only an
   * unreferenced content-addressed object behind (the orphan sweeper's work).
   */
  put(staged: StagedFile, tx: Prisma.TransactionClient): Promise<void>;
  has(sha256: string): Promise<boolean>;
  /** The stored bytes in order, streamed (never the whole file in memory); throws StoredFileMissingError. */
  read(sha256: string): AsyncIterable<Uint8Array>;
  /**
   * Removes stored files no submission refers to and nobody used since
   * `olderThan` (a newer one may be about to be referenced by an upload that
   * has not committed yet). Returns how many it removed. The S3 store has no
   * sweeper (see s3-file-store.ts).
   */
  sweepUnreferenced?(olderThan: Date): Promise<number>;
}

export class StoredFileMissingError extends Error {
  override readonly name = "StoredFileMissingError";
  constructor(readonly sha256: string, where: string) {
    super(`the prediction file ${sha256} is not in the ${where} file store`);
  }
}

export function assertSha256(sha256: string): void {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a SHA-256: ${sha256}`);
}
