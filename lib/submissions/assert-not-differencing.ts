import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma";
import { formatDateTime } from "@/lib/format/dates";
import { ANSWER_KEY_VERSION, computeAnswerDigests, countDifferingSamples, minimumDifferingSamples } from "@/lib/submissions/answer-digests";
import { getFileStore } from "@/lib/files/file-store";
import { loadScorableAnswers } from "@/lib/submissions/load-gold";
import { readPredictionFile } from "@/lib/submissions/read-prediction-file";
import type { Track } from "@/lib/scoring/tracks";
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
 * The digests of an earlier file stored before digests existed, or keyed by
 * another version of answerKey (never comparable with the new file's):
 * computed from the stored file and kept on the row with their version. A
 * file that is gone or no longer valid cannot be compared (null).
 */
async function backfillDigests(earlier: EarlierFile, check: DifferencingCheck): Promise<Uint8Array | null> {
  try {
    // Read as pre-flight and the worker read it.
    const { gold, validation } = await readPredictionFile(getFileStore().read(earlier.fileSha256), { releaseId: check.releaseId, split: "test", track: check.track });
    if (!validation.ok) return null;
    const digests = computeAnswerDigests(gold.sampleIds, validation, await loadScorableAnswers(check.releaseId));
    // Outside the caller's transaction: a refusal rolls that back, the digests stay right.
    await db.submission.update({ where: { id: earlier.id }, data: { answerDigests: digests, answerDigestsVersion: ANSWER_KEY_VERSION } });
    return digests;
  } catch (error) {
    logger.warn({ err: error, submissionId: earlier.id }, "submissions: could not compute the answer digests of an earlier submission");
    return null;
  }
}

/**
 * Protocol §12: refuses (422, before anything is stored or counted) a test
 * file that answers all but a few samples as an earlier test file of the same
 * account, release and track. Every earlier file counts except one the worker
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
  let closest: { file: EarlierFile; differing: number } | null = null;
  for (const file of earlierFiles) {
    const isCurrent = file.answerDigests !== null && file.answerDigestsVersion === ANSWER_KEY_VERSION;
    const digests = isCurrent ? file.answerDigests : await backfillDigests(file, check);
    if (digests === null) continue;
    const differing = countDifferingSamples(check.digests, digests);
    if (differing < required && (closest === null || differing < closest.differing)) closest = { file, differing };
  }
  if (closest === null) return;
  const { file, differing } = closest;
  const earlier = `your submission ${file.id} (uploaded ${formatDateTime(file.createdAt)})`;
  const what =
    differing === 0
      ? `This file gives the same scorable answers as ${earlier} in all ${check.sampleCount} samples`
      : `This file differs from ${earlier} in only ${differing} of ${check.sampleCount} samples that could score`;
  throw new AppError(
    "validation",
    `${what}; test files must differ in at least ${required} samples from each earlier one (protocol §12), so a one-line difference cannot read a single answer. ` +
      "Answers are compared after normalisation, and an answer that no test entity could make right (a name of no test candidate, a QID of a train or dev entity) counts as no answer. It cost no quota.",
  );
}
