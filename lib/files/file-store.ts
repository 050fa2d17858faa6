import "server-only";
import { getEnv, type Env } from "@/lib/env";
import type { Prisma } from "@/lib/generated/prisma";
import type { StagedFile } from "@/lib/files/staging";
import { DiskFileStore } from "@/lib/files/disk-file-store";
import { PostgresFileStore } from "@/lib/files/postgres-file-store";
import { S3FileStore } from "@/lib/files/s3-file-store";

/**
 * Where prediction files live once a submission is recorded: byte for byte,
 * content-addressed by SHA-256, immutable. The web app writes (put), workers
 * and pages read (read). IRC_FILE_STORE picks the implementation:
 *
 * - postgres (default): chunked bytea in the application's own database, so
 *   the file commits in the same transaction as its submission and quota
 *   charge, and a worker needs only DATABASE_URL and REDIS_URL;
 * - disk: IRC_DATA_DIR/submissions/ab/abcd....jsonl (one machine, or a mount
 *   every machine shares);
 * - s3: an S3 bucket (AWS, or S3-compatible with IRC_S3_ENDPOINT), for files larger
 *   or more numerous than the database should hold.
 */
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

export function createFileStore(kind: FileStoreKind, env: Env = getEnv()): FileStore {
  if (kind === "disk") return new DiskFileStore(env.IRC_DATA_DIR);
  if (kind === "s3") return S3FileStore.fromEnv(env);
  return new PostgresFileStore();
}

let cached: FileStore | undefined;

/** The store IRC_FILE_STORE names (one per process). */
export function getFileStore(): FileStore {
  cached ??= createFileStore(getEnv().IRC_FILE_STORE);
  return cached;
}
