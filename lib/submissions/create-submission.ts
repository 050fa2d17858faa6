import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Submission } from "@/lib/generated/prisma";
import { logger } from "@/lib/logger";
import { webMetrics } from "@/lib/metrics/web-metrics";
import { getActiveRelease } from "@/lib/releases/get-release";
import { commitStagedFile, discardStagedFile, type StagedFile } from "@/lib/submissions/file-store";
import { computeAnswerDigests } from "@/lib/submissions/answer-digests";
import { assertNotDifferencing } from "@/lib/submissions/assert-not-differencing";
import { runPreflight, type ScoredSplitName } from "@/lib/submissions/preflight";
import { assertQuotaLeft, getTestQuota } from "@/lib/submissions/quota";
import { enqueueScoring } from "@/lib/submissions/scoring-queue";
import type { Track } from "@/lib/scoring/tracks";
import { assertMayUserSubmitTest } from "@/lib/users/test-approval";

export type CreateSubmissionOptions = {
  userId: string;
  /** The upload, already streamed to disk under the size limit (file-store.ts stageUpload). */
  staged: StagedFile;
  originalName: string;
  declaredSplit?: ScoredSplitName;
  declaredTrack?: Track;
  /** Quota applies to participants; the system account's baselines are exempt. */
  isQuotaExempt?: boolean;
  baseline?: { label: string; description: string };
  releaseId?: string;
};

const MAX_NAME_LENGTH = 200;
/**
 * A staged upload -> pre-flight validation -> approval (TEST_REQUIRES_APPROVAL)
 * -> differencing check (protocol §12) -> quota -> stored submission -> queued
 * scoring job. The row, the stored file and the quota charge commit together
 * or not at all; a file rejected before that is deleted and costs no quota,
 * and so does one whose job Redis cannot take (503, see queueOrWithdraw).
 */
export async function createSubmission(options: CreateSubmissionOptions): Promise<Submission> {
  const release = options.releaseId
    ? await db.datasetRelease.findUniqueOrThrow({ where: { id: options.releaseId } })
    : await getActiveRelease();
  const { staged } = options;
  let submission: Submission;
  try {
    const preflight = await runPreflight({
      path: staged.tempPath,
      releaseId: release.id,
      declaredSplit: options.declaredSplit,
      declaredTrack: options.declaredTrack,
    });
    const countsToQuota = preflight.split === "test" && !options.isQuotaExempt;
    // Baselines (the system account) are computed, not chosen to read the gold.
    const isDifferencingChecked = preflight.split === "test" && options.baseline === undefined && !options.isQuotaExempt;
    const answerDigests = computeAnswerDigests(preflight.sampleIds, preflight.validation);
    if (preflight.split === "test") await assertMayUserSubmitTest(options.userId);
    submission = await db.$transaction(async (tx) => {
      if (countsToQuota || isDifferencingChecked) {
        // One participant's concurrent uploads queue up here, so neither the
        // quota nor the differencing check can be raced.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`quota:${options.userId}`}))`;
      }
      if (isDifferencingChecked) {
        await assertNotDifferencing(
          { userId: options.userId, releaseId: release.id, track: preflight.track, digests: answerDigests, sampleCount: preflight.sampleCount },
          tx,
        );
      }
      if (countsToQuota) assertQuotaLeft(await getTestQuota(options.userId, release.id, new Date(), tx));
      const created = await tx.submission.create({
        data: {
          userId: options.userId,
          releaseId: release.id,
          split: preflight.split,
          track: preflight.track,
          fileSha256: staged.sha256,
          fileBytes: staged.bytes,
          originalName: options.originalName.slice(0, MAX_NAME_LENGTH) || "predictions.jsonl",
          sampleCount: preflight.sampleCount,
          answerDigests,
          countsToQuota,
          isBaseline: options.baseline !== undefined,
          baselineLabel: options.baseline?.label,
          systemName: options.baseline?.label,
          methodDescription: options.baseline?.description,
        },
      });
      // The file goes into place inside the transaction: a failed move rolls
      // back the row and with it the quota charge. A commit that fails after
      // the move leaves only an unreferenced content-addressed file behind,
      // which costs nobody anything (another upload may share those bytes).
      await commitStagedFile(staged);
      return created;
    });
  } catch (error) {
    await discardStagedFile(staged);
    throw error;
  }
  await queueOrWithdraw(submission);
  webMetrics().uploadBytes.observe({ split: submission.split, track: submission.track }, submission.fileBytes);
  logger.info({ submissionId: submission.id, split: submission.split, track: submission.track, bytes: submission.fileBytes }, "submission queued");
  return submission;
}

/** Seconds an uploader is asked to wait when the queue is unreachable (Retry-After). */
export const QUEUE_UNAVAILABLE_RETRY_SECONDS = 30;

/**
 * Queues the new submission for scoring. When Redis cannot take the job (it
 * is down: the producer fails fast, with no offline queue), the submission is
 * withdrawn — row, quota charge and all — and the uploader gets a 503 with
 * Retry-After: sending the file again later creates it anew, so nothing is
 * charged for the failure and nothing is scored twice. Should the job have
 * reached Redis after all (an answer lost in a timeout), its worker finds no
 * submission and does nothing.
 */
async function queueOrWithdraw(submission: Submission): Promise<void> {
  try {
    await enqueueScoring(submission.id);
    return;
  } catch (error) {
    const log = logger.child({ submissionId: submission.id });
    const withdrawn = await db.submission.deleteMany({ where: { id: submission.id, status: "QUEUED" } }).then(
      (result) => result.count === 1,
      (deleteError: unknown) => {
        // PostgreSQL is gone too: the row stays QUEUED and the reconciler scores it once Redis is back.
        log.error({ err: deleteError }, "could not withdraw a submission whose job could not be queued");
        return false;
      },
    );
    log.warn({ err: error, withdrawn }, "could not queue scoring: Redis is unreachable");
    if (!withdrawn) return;
    webMetrics().uploadsRefused.inc({ reason: "queue_unavailable" });
    throw new AppError(
      "unavailable",
      "Scoring is unavailable right now (the scoring queue cannot be reached), so this upload was not kept and cost no quota. " +
        `Send the same file again in ${QUEUE_UNAVAILABLE_RETRY_SECONDS} seconds.`,
      { retryAfterSeconds: QUEUE_UNAVAILABLE_RETRY_SECONDS },
    );
  }
}
