import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma";
import { formatDateTime } from "@/lib/format/dates";
import { ANSWER_KEY_VERSION, compareAnswerDigests, computeAnswerDigests, minimumDifferingSamples, tooCloseOf } from "@/lib/submissions/answer-digests";
import { getFileStore } from "@/lib/files/file-store";
import { loadScorableAnswers } from "@/lib/submissions/load-gold";
import { readPredictionFile } from "@/lib/submissions/read-prediction-file";
import type { MetricKey, Track } from "@/lib/scoring/tracks";
import { logger } from "@/lib/logger";

export type DifferencingCheck = {
  userId: string;
  releaseId: string;
  track: Track;
  /** The new file's digests (answer-digests.ts, key version ANSWER_KEY_VERSION), in gold order. */
  digests: Uint8Array;
  sampleCount: number;
};

type EarlierFile = { id: string; createdAt: Date; fileSha256: string; answerDigests: Uint8Array | null; answerDigestsVersion: number | null };

/**
 * The digests of an earlier file stored before digests existed, or made by
 * another version of the key (never comparable with the new file's):
 * computed from the stored file, and kept on the row with their version when
 * that can be written. A file that no longer validates cannot be compared
 * (null); a file that cannot be read refuses the upload for now (503, no
 * quota), since skipping it would let a near-copy through.
 */
async function backfillDigests(earlier: EarlierFile, check: DifferencingCheck): Promise<Uint8Array | null> {
  let digests: Uint8Array<ArrayBuffer>;
  try {
    // Read as pre-flight and the worker read it.
    const { gold, validation } = await readPredictionFile(getFileStore().read(earlier.fileSha256), { releaseId: check.releaseId, split: "test", track: check.track });
    if (!validation.ok) return null;
    digests = computeAnswerDigests(gold.sampleIds, validation, await loadScorableAnswers(check.releaseId));
  } catch (error) {
    logger.error({ err: error, submissionId: earlier.id }, "submissions: could not compute the answer digests of an earlier submission");
    throw new AppError("unavailable", "Your earlier test files could not be read to compare this one with them (protocol §12). Nothing was stored or charged; please try again in a few minutes.");
  }
  // Outside the caller's transaction: a refusal rolls that back, the digests stay right. Kept only if it can be.
  await db.submission
    .update({ where: { id: earlier.id }, data: { answerDigests: digests, answerDigestsVersion: ANSWER_KEY_VERSION } })
    .catch((error: unknown) => logger.warn({ err: error, submissionId: earlier.id }, "submissions: could not keep the recomputed answer digests"));
  return digests;
}

/**
 * Protocol §12: refuses (422, before anything is stored or counted) a test
 * file that answers all but a few samples as an earlier test file of the same
 * account, release and track, on the whole or on any one metric the owner
 * sees (answer-digests.ts). Every earlier file counts except one the worker
 * found invalid (it was never scored, so nothing was learned from it). Run
 * inside the transaction that holds the account's submission lock.
 */
export async function assertNotDifferencing(check: DifferencingCheck, client: Prisma.TransactionClient = db): Promise<void> {
  const earlierFiles = await client.submission.findMany({
    where: {
      userId: check.userId,
      releaseId: check.releaseId,
      split: "test",
      track: check.track,
      // (a plain NOT would also drop the rows whose failureKind is NULL)
      OR: [{ failureKind: null }, { failureKind: { not: "INVALID" } }],
    },
    select: { id: true, createdAt: true, fileSha256: true, answerDigests: true, answerDigestsVersion: true },
    orderBy: { createdAt: "asc" },
  });
  const required = minimumDifferingSamples(check.sampleCount);
  for (const file of earlierFiles) {
    const isCurrent = file.answerDigests !== null && file.answerDigestsVersion === ANSWER_KEY_VERSION;
    const digests = isCurrent ? file.answerDigests : await backfillDigests(file, check);
    if (digests === null) continue;
    const tooClose = tooCloseOf(compareAnswerDigests(check.digests, digests, check.track), check.track, required);
    if (tooClose !== null) throw refusal(file, tooClose, check, required);
  }
}

function refusal(file: EarlierFile, tooClose: { metric: MetricKey | null; differing: number }, check: DifferencingCheck, required: number): AppError {
  const earlier = `your submission ${file.id} (uploaded ${formatDateTime(file.createdAt)})`;
  const { metric, differing } = tooClose;
  const what =
    metric !== null
      ? `This file changes ${metric} from ${earlier} in only ${differing} of ${check.sampleCount} samples`
      : differing === 0
        ? `This file gives the same scorable answers as ${earlier} in all ${check.sampleCount} samples`
        : `This file differs from ${earlier} in only ${differing} of ${check.sampleCount} samples that could score`;
  return new AppError(
    "validation",
    `${what}; a test file must differ from each earlier one in at least ${required} samples, and every metric must move by at least ${required} samples or by none (protocol §12), so a few changed answers cannot be read off a score. ` +
      "Answers are compared by what they could score on each metric: an answer that no test entity could make right (nonsense, a train or dev entity) counts as no answer. It cost no quota.",
  );
}
