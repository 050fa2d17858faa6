import { db } from "@/lib/platform/db";
import { getFileStore } from "@/lib/platform/files/file-store";

/** The stored bytes of a prediction file, read back through the configured file store. */
export async function readStoredText(sha256: string): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of getFileStore().read(sha256)) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

export async function isStored(sha256: string): Promise<boolean> {
  return getFileStore().has(sha256);
}

/** Replaces the stored bytes behind a submission's back (the PostgreSQL store the tests run on). */
export async function overwriteStoredText(sha256: string, text: string): Promise<void> {
  const data = Buffer.from(text, "utf8");
  await db.$transaction([
    db.storedFileChunk.deleteMany({ where: { sha256 } }),
    db.storedFileChunk.create({ data: { sha256, index: 0, data } }),
    db.storedFile.update({ where: { sha256 }, data: { bytes: data.length, chunkCount: 1 } }),
  ]);
}

export async function storedChunkCount(): Promise<number> {
  return db.storedFileChunk.count();
}
