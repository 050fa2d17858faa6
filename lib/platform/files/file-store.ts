import "server-only";
import { getEnv, type Env } from "@/lib/platform/env";
import type { FileStore, FileStoreKind } from "@/lib/platform/files/store-contract";
import { DiskFileStore } from "@/lib/platform/files/disk-file-store";
import { PostgresFileStore } from "@/lib/platform/files/postgres-file-store";
import { S3FileStore } from "@/lib/platform/files/s3-file-store";

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
