import { z } from "zod";
import { ENTITY_TYPES } from "@/lib/core/dataset/release-schema";

/**
 * The JSON columns of DatasetRelease, as schemas: `stats` (the dataset
 * card's counts, protocol section 3) and `downloads` (SHA-256 and size of
 * each download's exact bytes). Written at import by release-summary.ts and
 * read back through these, never with `as`.
 */

const count = z.number().int().nonnegative();
const splitCountsSchema = z.object({ train: count, dev: count, test: count });
const splitSizeSchema = z.object({ samples: count, entities: count });

const releaseStatsSchema = z.object({
  splits: z.object({ train: splitSizeSchema, dev: splitSizeSchema, test: splitSizeSchema }),
  kbEntities: count,
  byType: z.record(z.enum(ENTITY_TYPES), z.object({ samples: splitCountsSchema, entities: splitCountsSchema, kbEntities: count })),
  byCollection: z.record(z.string(), splitCountsSchema),
});
export type ReleaseStats = z.infer<typeof releaseStatsSchema>;
export type SplitCounts = z.infer<typeof splitCountsSchema>;

const digestSchema = z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: count });
export type Digest = z.infer<typeof digestSchema>;
const downloadDigestsSchema = z.record(z.string(), digestSchema);

/** A release's stored counts; throws (a 500) when the row is not what import wrote. */
export function readReleaseStats(stored: unknown): ReleaseStats {
  return releaseStatsSchema.parse(stored);
}

/** A release's stored download digests by file name; throws when the row is not what import wrote. */
export function readDownloadDigests(stored: unknown): Record<string, Digest> {
  return downloadDigestsSchema.parse(stored ?? {});
}
