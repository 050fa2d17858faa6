import "server-only";
import { db } from "@/lib/platform/db";
import { AppError, isAppError } from "@/lib/core/errors";
import { getFileStore } from "@/lib/platform/files/file-store";
import { discardStagedFile, type StagedFile } from "@/lib/platform/files/staging";
import type { Prisma, Submission } from "@/lib/platform/generated/prisma";
import { logger } from "@/lib/platform/logger";
import { webMetrics } from "@/lib/platform/metrics/web-metrics";
import { getActiveRelease } from "@/lib/domain/releases/get-release";
import { ANSWER_KEY_VERSION } from "@/lib/core/integrity/answer-digests";
import { assertNotIdenticalUpload } from "@/lib/domain/uploads/assert-not-identical-upload";
import { assertDevUploadAllowed } from "@/lib/domain/quotas/dev-upload-limits";
import { findIdempotentReplay } from "@/lib/domain/uploads/find-idempotent-replay";
import { runPreflight } from "@/lib/domain/uploads/preflight";
import { assertTestQuotaLeft } from "@/lib/domain/quotas/quota";
import { chargeTestQuota } from "@/lib/domain/quotas/quota-ledger";
import { enqueueScoring } from "@/lib/platform/queue/scoring-queue";
import type { ScoredSplit, Track } from "@/lib/core/scoring/tracks";
import { addressBucket } from "@/lib/platform/rate-limit/client-ip";
import { isUniqueViolation } from "@/lib/domain/accounts/is-unique-violation";
import { assertMayUserSubmitTest } from "@/lib/domain/accounts/test-approval";

type CreateSubmissionOptions = {
  userId: string;
  /** The upload, already streamed to a staged file under the size limit (lib/platform/files/staging.ts). */
  staged: StagedFile;
  originalName: string;
  declaredSplit?: ScoredSplit;
  declaredTrack?: Track;
  /** The uploader's Idempotency-Key: a retry with the same key and file returns the first submission. */
  idempotencyKey?: string;
  /**
   * The uploader's address as the platform sees it (lib/platform/rate-limit/request-ip.ts): a test upload is
   * charged to it as well as to the account (protocol §12). Omitted: an operator's command on the
   * server, with no network client; only the account's budget binds.
   */
  clientIp?: string;
  /** Quota and dev upload limits apply to participants; the system account's baselines are exempt. */
  isQuotaExempt?: boolean;
  baseline?: { label: string; description: string };
  releaseId?: string;
};

/** isReplay: an earlier upload with the same Idempotency-Key made this submission; nothing new was stored or charged. */
type CreatedSubmission = Submission & { isReplay: boolean };

const MAX_NAME_LENGTH = 200;
/** A 64 MiB file is 64 chunk inserts; a loaded machine must not time the transaction out half-way. */
const TRANSACTION_TIMEOUT_MS = 120_000;

function storeFailure(error: unknown): AppError {
  logger.error({ err: error }, "submissions: the file store refused a file");
  return new AppError("unavailable", "We could not store your file on our side. Nothing was scored and no quota was used; please try again in a few minutes.", {
    retryAfterSeconds: 60,
  });
}

function commitFailure(error: unknown): AppError {
  logger.error({ err: error }, "submissions: recording a submission failed");
  return new AppError("unavailable", "We could not record your submission on our side. Nothing was stored and no quota was used; please try again in a few minutes.", {
    retryAfterSeconds: 60,
  });
}

async function replayOf(options: CreateSubmissionOptions, client?: Prisma.TransactionClient): Promise<CreatedSubmission | null> {
  if (options.idempotencyKey === undefined) return null;
  const earlier = await findIdempotentReplay(
    {
      userId: options.userId,
      idempotencyKey: options.idempotencyKey,
      sha256: options.staged.sha256,
      declaredSplit: options.declaredSplit,
      declaredTrack: options.declaredTrack,
    },
    client,
  );
  return earlier ? { ...earlier, isReplay: true } : null;
}

/**
 * A staged upload -> (a replayed Idempotency-Key returns its submission) ->
 * pre-flight validation -> approval (TEST_REQUIRES_APPROVAL) -> the refusal
 * of a test file identical to one of the account's (protocol §12) -> quota (the account's and the client address's) or
 * dev upload limits -> the stored file, the row and its quota ledger charge in
 * one transaction -> queued scoring job. A file
 * rejected or failing anywhere before the commit costs no quota and leaves no
 * row; the staged file is removed whatever happens. So does one whose job
 * Redis cannot take (503, see queueOrWithdraw).
 */
export async function createSubmission(options: CreateSubmissionOptions): Promise<CreatedSubmission> {
  let submission: CreatedSubmission;
  try {
    const replay = await replayOf(options);
    if (replay) return replay;
    submission = await commitSubmission(options, await planSubmission(options));
  } finally {
    await discardStagedFile(options.staged);
  }
  if (submission.isReplay) return submission;
  await queueOrWithdraw(submission);
  webMetrics().uploadBytes.observe({ split: submission.split, track: submission.track }, submission.fileBytes);
  logger.info({ submissionId: submission.id, split: submission.split, track: submission.track, bytes: submission.fileBytes }, "submission queued");
  return submission;
}

/** What the checks before the commit decided: the release, the pre-flight result and which limits apply. */
type SubmissionPlan = {
  release: Awaited<ReturnType<typeof getActiveRelease>>;
  preflight: Awaited<ReturnType<typeof runPreflight>>;
  /** A test file that costs its uploader a quota charge (not a baseline, not an exempt operator upload). */
  isCharged: boolean;
  isDevLimited: boolean;
  isReuploadChecked: boolean;
  clientAddress: string | null;
};

/** The release, the pre-flight validation and the approval check: everything that needs no lock. */
async function planSubmission(options: CreateSubmissionOptions): Promise<SubmissionPlan> {
  const release = options.releaseId
    ? await db.datasetRelease.findUniqueOrThrow({ where: { id: options.releaseId } })
    : await getActiveRelease();
  const preflight = await runPreflight({
    path: options.staged.tempPath,
    releaseId: release.id,
    declaredSplit: options.declaredSplit,
    declaredTrack: options.declaredTrack,
  });
  const isCharged = preflight.split === "test" && !options.isQuotaExempt;
  const isDevLimited = preflight.split === "dev" && !options.isQuotaExempt;
  // Baselines (the system account) are computed, not chosen to read the gold.
  const isReuploadChecked = preflight.split === "test" && options.baseline === undefined && !options.isQuotaExempt;
  if (preflight.split === "test") await assertMayUserSubmitTest(options.userId, release.id);
  const clientAddress = preflight.split === "test" && options.clientIp !== undefined ? addressBucket(options.clientIp) : null;
  return { release, preflight, isCharged, isDevLimited, isReuploadChecked, clientAddress };
}

/** The stored file, the row and its quota charge in one transaction; a lost race on the Idempotency-Key is that key's replay. */
async function commitSubmission(options: CreateSubmissionOptions, plan: SubmissionPlan): Promise<CreatedSubmission> {
  const store = getFileStore();
  try {
    return await db.$transaction((tx) => writeSubmission(tx, options, plan, store), { timeout: TRANSACTION_TIMEOUT_MS, maxWait: 30_000 });
  } catch (error) {
    // A concurrent upload with the same Idempotency-Key committed first (one that takes no lock): this one is its retry.
    if (options.idempotencyKey !== undefined && isUniqueViolation(error)) {
      const concurrent = await replayOf(options);
      if (concurrent) return concurrent;
    }
    if (isAppError(error)) throw error;
    throw commitFailure(error);
  }
}

/** Inside the transaction: the locks, the checks that must not be raced, then the row, the charge and the file. */
async function writeSubmission(
  tx: Prisma.TransactionClient,
  options: CreateSubmissionOptions,
  plan: SubmissionPlan,
  store: ReturnType<typeof getFileStore>,
): Promise<CreatedSubmission> {
  const { staged } = options;
  const { release, preflight, isCharged, isDevLimited, isReuploadChecked, clientAddress } = plan;
  if (isCharged || isReuploadChecked || isDevLimited) {
    // One participant's concurrent uploads queue up here, so neither the
    // quota, the dev limits nor the re-upload check can be raced.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`quota:${options.userId}`}))`;
  }
  // Accounts sharing an address share its budget: their uploads queue up here too (always after the account's lock).
  if (isCharged && clientAddress !== null) {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`quota-address:${clientAddress}`}))`;
  }
  // A concurrent upload with the same key may have committed while this one waited for the lock.
  const concurrent = await replayOf(options, tx);
  if (concurrent) return concurrent;
  if (isReuploadChecked) await assertNotIdenticalUpload({ userId: options.userId, releaseId: release.id, fileSha256: staged.sha256 }, tx);
  if (isCharged) await assertTestQuotaLeft({ userId: options.userId, releaseId: release.id, clientAddress }, tx);
  if (isDevLimited) await assertDevUploadAllowed(options.userId, staged.bytes, tx);
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
      answerDigests: preflight.answerDigests,
      answerDigestsVersion: ANSWER_KEY_VERSION,
      clientAddress,
      idempotencyKey: options.idempotencyKey,
      isBaseline: options.baseline !== undefined,
      baselineLabel: options.baseline?.label,
      systemName: options.baseline?.label,
      methodDescription: options.baseline?.description,
    },
  });
  if (isCharged) await chargeTestQuota(tx, created);
  // The file is stored inside the transaction: with the PostgreSQL
  // store its chunks commit with the row and the charge or not at all;
  // with disk or S3 a failed write rolls the row back, and a commit
  // failing after it leaves only an unreferenced content-addressed file.
  await store.put(staged, tx).catch((error: unknown) => {
    throw storeFailure(error);
  });
  // Deferred checks would otherwise run inside COMMIT, and a COMMIT that
  // fails leaves its connection checked out of @prisma/adapter-pg 6.19's
  // pool for good: run them here, where a failure rolls back cleanly.
  await tx.$executeRaw`SET CONSTRAINTS ALL IMMEDIATE`;
  return { ...created, isReplay: false };
}

/** Seconds an uploader is asked to wait when the queue is unreachable (Retry-After). */
const QUEUE_UNAVAILABLE_RETRY_SECONDS = 30;

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
