import "server-only";
import { db } from "@/lib/platform/db";

/** What the publication guard knows of a test split: its sample ids and their collections, in test.jsonl order. Both are public. */
export type TestLayout = { sampleIds: readonly string[]; collections: readonly string[] };

const layouts = new Map<string, Promise<TestLayout>>();

/**
 * The test split of a release as participants download it (test.jsonl: ids
 * and collections), in the order answer digests are kept. Reads no gold
 * column: protocol §12's guard reads nothing of the test gold. Releases never
 * change, so each is read once per process.
 */
export function loadTestLayout(releaseId: string): Promise<TestLayout> {
  let cached = layouts.get(releaseId);
  if (!cached) {
    cached = db.sample
      .findMany({ where: { releaseId, split: "test" }, orderBy: { ordinal: "asc" }, select: { sampleId: true, collection: true } })
      .then((rows) => ({ sampleIds: rows.map((row) => row.sampleId), collections: rows.map((row) => row.collection) }));
    cached.catch(() => layouts.delete(releaseId));
    layouts.set(releaseId, cached);
  }
  return cached;
}
