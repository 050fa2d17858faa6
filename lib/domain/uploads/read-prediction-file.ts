import "server-only";
import type { Split as DbSplit } from "@/lib/platform/generated/prisma";
import type { ByteSource } from "@/lib/platform/io/read-line-bytes";
import { validatePredictionFile } from "@/lib/platform/io/validate-prediction-file";
import { loadSplitGold, type SplitGold } from "@/lib/domain/scoring/load-gold";
import type { PredictionValidationResult } from "@/lib/core/scoring/validate-predictions";
import type { Track } from "@/lib/core/scoring/tracks";

type ReadPredictionFileOptions = { releaseId: string; split: DbSplit; track?: Track };
type ReadPredictionFile = { gold: SplitGold; validation: PredictionValidationResult };

/**
 * Reads a prediction file against one split of a release under the rules of
 * protocol section 4: the one reading of an upload. The upload's pre-flight
 * (a path, or a stored file's chunks from lib/platform/files/file-store.ts) calls it to answer 422 with every problem before anything is stored; the
 * worker calls it on the stored copy to get the predictions it scores (a
 * release never changes, so there it fails only if the stored bytes did).
 */
export async function readPredictionFile(source: ByteSource, options: ReadPredictionFileOptions): Promise<ReadPredictionFile> {
  const gold = await loadSplitGold(options.releaseId, options.split);
  const validation = await validatePredictionFile(source, {
    sampleIds: gold.sampleIds,
    kbQids: gold.kb,
    track: options.track,
    split: options.split,
  });
  return { gold, validation };
}
