import "server-only";
import { db } from "@/lib/platform/db";
import { memoizeLoad } from "@/lib/platform/memo";
import { AppError } from "@/lib/core/errors";
import { getFileStore } from "@/lib/platform/files/file-store";
import type { Track } from "@/lib/platform/generated/prisma";
import { logger } from "@/lib/platform/logger";
import { ANSWER_KEY_VERSION, computeAnswerDigests } from "@/lib/core/integrity/answer-digests";
import { loadAnswerIndex } from "@/lib/domain/scoring/load-gold";
import { loadTestLayout } from "@/lib/domain/publication/load-test-layout";
import { readPredictionFile } from "@/lib/domain/uploads/read-prediction-file";

/** The columns of a test submission its answer digests are read or made from. */
export const DIGEST_ROW_SELECT = { id: true, releaseId: true, track: true, fileSha256: true, answerDigests: true, answerDigestsVersion: true } as const;
export type DigestRow = { id: string; releaseId: string; track: Track; fileSha256: string; answerDigests: Uint8Array | null; answerDigestsVersion: number | null };

/**
 * A test file's answer digests (answer-digests.ts) as the current key makes
 * them. Digests stored by pre-flight are used as they are; those of another
 * key version, or none (rows from before the column), are computed from the
 * stored file and kept on the row. Null for a file that no longer validates
 * (it cannot be compared); a file that cannot be read is a 503, since
 * skipping it would let a near-copy through.
 */
export async function loadAnswerDigests(row: DigestRow): Promise<Uint8Array | null> {
  if (row.answerDigests !== null && row.answerDigestsVersion === ANSWER_KEY_VERSION) return row.answerDigests;
  let digests: Uint8Array<ArrayBuffer>;
  try {
    const { gold, validation } = await readPredictionFile(getFileStore().read(row.fileSha256), { releaseId: row.releaseId, split: "test", track: row.track });
    if (!validation.ok) return null;
    digests = computeAnswerDigests(gold.sampleIds, validation, await loadAnswerIndex(row.releaseId));
  } catch (error) {
    logger.error({ err: error, submissionId: row.id }, "submissions: could not compute the answer digests of a stored test file");
    throw new AppError("unavailable", "A stored test file could not be read to compare this one with it (protocol §12). Nothing was changed; please try again in a few minutes.", {
      retryAfterSeconds: 60,
    });
  }
  // Outside any caller's transaction: a refusal rolls that back, the digests stay right. Kept only if it can be.
  await db.submission
    .update({ where: { id: row.id }, data: { answerDigests: digests, answerDigestsVersion: ANSWER_KEY_VERSION } })
    .catch((error: unknown) => logger.warn({ err: error, submissionId: row.id }, "submissions: could not keep the recomputed answer digests"));
  return digests;
}

const positionMaps = memoizeLoad(async (key) => {
  const [releaseId = "", otherReleaseId = ""] = key.split(":");
  const [mine, other] = await Promise.all([loadTestLayout(releaseId), loadTestLayout(otherReleaseId)]);
  const positionOf = new Map(other.sampleIds.map((sampleId, position) => [sampleId, position]));
  return Int32Array.from(mine.sampleIds, (sampleId) => positionOf.get(sampleId) ?? -1);
}, { max: 16 });

/**
 * For each test sample position of `releaseId`, its position in the test
 * split of `otherReleaseId` (another version of the same release name), or
 * -1 where that version has no such sample; null for the same release.
 * Releases never change, so each map is built once per process.
 */
export async function testPositionMap(releaseId: string, otherReleaseId: string): Promise<Int32Array | null> {
  if (releaseId === otherReleaseId) return null;
  return positionMaps.get(`${releaseId}:${otherReleaseId}`);
}
