import "server-only";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import type { Prisma } from "@/lib/generated/prisma";
import { computeProbeFlags } from "@/lib/integrity/probe-flags";
import { buildSampleAnalysis, loadKbNames, upsertSampleAnalysis } from "@/lib/submissions/sample-analysis";
import { isScoreStale, releaseGoldOf } from "@/lib/scores/score-staleness";
import { recordRescore } from "@/lib/scores/record-rescore";
import { storeScores } from "@/lib/scores/store-score";
import { scorePredictions } from "@/lib/scoring/score-report";
import { sliceReportsOf } from "@/lib/slices/slice-reports";
import { getFileStore } from "@/lib/files/file-store";
import { loadAnswerIndex } from "@/lib/submissions/load-gold";
import { readPredictionFile } from "@/lib/submissions/read-prediction-file";
import { compareWithBaselines, lockSplitComparisons, refreshComparisons, REFRESH_TIMEOUT_MS } from "@/lib/submissions/refresh-comparisons";
import { refundTestQuota } from "@/lib/submissions/quota-ledger";

/** A stored file that fails validation: retrying cannot help. */
export class InvalidSubmissionError extends Error {
  override readonly name = "InvalidSubmissionError";
}

export type ProcessOutcome = "scored" | "already-scored" | "missing";

const LISTED_IN_REASON = 10;

/**
 * Scores one submission with the shared lib/scoring core against the gold in
 * the database, in four steps: mark it SCORING, read the stored file, score
 * it, then store the score, mark it SCORED and compare it with the baselines
 * in one transaction (its owner never sees a scored submission without its
 * comparisons). Safe to run twice: the score is an upsert keyed by the
 * submission, comparisons are replaced, and an up-to-date score is left alone.
 */
export async function processSubmission(submissionId: string, options: { force?: boolean } = {}): Promise<ProcessOutcome> {
  const submission = await db.submission.findUnique({ where: { id: submissionId }, include: { release: true, score: true } });
  if (!submission) return "missing";
  const goldSha256 = releaseGoldOf(submission.release.goldSha256, submission.split) ?? "";
  const isCurrent = submission.score !== null && !isScoreStale(submission.score, goldSha256);
  if (!options.force && submission.status === "SCORED" && isCurrent) {
    // A repeated delivery may follow a crash between scoring and comparing: finish that part.
    await refreshComparisons(submission.releaseId, submission.split, submissionId);
    return "already-scored";
  }

  await markSubmissionScoring(submissionId);

  const { gold, validation } = await readPredictionFile(getFileStore().read(submission.fileSha256), {
    releaseId: submission.releaseId,
    split: submission.split,
    track: submission.track,
  });
  if (!validation.ok) {
    const listed = validation.problems.slice(0, LISTED_IN_REASON).map((problem) => (problem.line ? `line ${problem.line}: ${problem.message}` : problem.message));
    throw new InvalidSubmissionError(`The stored file no longer validates against the ${submission.split} split: ${listed.join("; ")}`);
  }

  const env = getEnv();
  const reportOptions = { split: submission.split === "train" ? ("dev" as const) : submission.split, seed: env.BOOTSTRAP_SEED, resamples: env.BOOTSTRAP_RESAMPLES };
  const { report, outcomes } = scorePredictions({ ...validation, ...reportOptions, gold: gold.gold, kb: gold.kb });
  // Protocol section 12: the owner's numbers come from the feedback slice, everything public from the ranking slice.
  const slices = sliceReportsOf(gold, outcomes, reportOptions);
  // Error classes (docs/scoring.md): per sample on dev, aggregates only on test.
  const analysis = buildSampleAnalysis({ ...validation, split: submission.split, gold: gold.gold, kb: gold.kb, outcomes, names: await loadKbNames(submission.releaseId) });
  // Protocol section 12: maintainers see these before publishing a test file (docs/integrity.md).
  const probeFlags = gold.knownSplitQids
    ? computeProbeFlags({
        ...validation,
        knownSplitQids: gold.knownSplitQids,
        answerIndex: await loadAnswerIndex(submission.releaseId),
        // Collections only: test.jsonl names them; nothing else of the gold reaches the flags.
        collectionOf: new Map(gold.gold.map((record) => [record.id, record.collection])),
        minGroupN: submission.release.minGroupN,
      })
    : null;

  await db.$transaction(
    async (tx) => {
      await lockSplitComparisons(tx, submission.releaseId, submission.split);
      // A re-score that changes anything is recorded for the release page (lib/scores/record-rescore.ts).
      if (submission.score !== null) await recordRescore(tx, { submission, previous: submission.score, report: slices?.ranking ?? report, goldSha256 });
      await storeScores(tx, [{ submissionId, report, outcomes: outcomes.codes, goldSha256, probeFlags, slices }]);
      await upsertSampleAnalysis(submissionId, analysis, tx);
      await markSubmissionScored(tx, submissionId);
      await compareWithBaselines(tx, submission.releaseId, submission.split, submissionId);
    },
    { timeout: REFRESH_TIMEOUT_MS, maxWait: REFRESH_TIMEOUT_MS },
  );
  return "scored";
}

async function markSubmissionScoring(submissionId: string): Promise<void> {
  await db.submission.update({
    where: { id: submissionId },
    data: { status: "SCORING", startedAt: new Date(), attempts: { increment: 1 } },
  });
}

/** The status change that makes a score visible; the caller's transaction also holds its comparisons. */
async function markSubmissionScored(tx: Prisma.TransactionClient, submissionId: string): Promise<void> {
  await tx.submission.update({
    where: { id: submissionId },
    data: { status: "SCORED", finishedAt: new Date(), failureKind: null, failureReason: null },
  });
}

/**
 * Records a failure the owner can act on (INVALID) or an internal fault after the last retry (INTERNAL).
 * An internal fault is the platform's, not the file's: its test quota charge is refunded in the same
 * transaction, with the reason (a second call finds the refund made and adds none).
 */
export async function markSubmissionFailed(submissionId: string, kind: "INVALID" | "INTERNAL", reason: string): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.submission.updateMany({
      where: { id: submissionId },
      data: { status: "FAILED", failureKind: kind, failureReason: reason, finishedAt: new Date() },
    });
    if (kind === "INTERNAL") await refundTestQuota({ submissionId, reason: `Scoring failed on the platform's side: ${reason}` }, tx);
  });
}

/** Between retries of an internal fault the submission waits in the queue again, with the reason shown. */
export async function markSubmissionRetrying(submissionId: string, attempt: number, maxAttempts: number): Promise<void> {
  await db.submission.updateMany({
    where: { id: submissionId, status: { not: "SCORED" } },
    data: {
      status: "QUEUED",
      failureKind: "INTERNAL",
      failureReason: `An internal error interrupted scoring (attempt ${attempt} of ${maxAttempts}); it is retried automatically.`,
    },
  });
}
