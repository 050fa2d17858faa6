import "server-only";
import { db } from "@/lib/db";
import type { Submission } from "@/lib/generated/prisma";
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
 * or not at all; a file rejected before that is deleted and costs no quota.
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
  // When Redis is unreachable the submission stays QUEUED and the worker's
  // reconciler queues it once Redis is back: nothing is lost.
  await enqueueScoring(submission.id).catch((error: unknown) => {
    console.error(`[submissions] could not queue ${submission.id}; the reconciler will retry`, error);
  });
  return submission;
}
