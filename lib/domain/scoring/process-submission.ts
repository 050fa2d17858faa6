import "server-only";
import { db } from "@/lib/platform/db";
import { getEnv } from "@/lib/platform/env";
import { DEFAULT_MIN_GROUP_N } from "@/lib/core/disclosure/disclose";
import type { Prisma } from "@/lib/platform/generated/prisma";
import { computeProbeFlags } from "@/lib/core/integrity/probe-flags";
import { buildSampleAnalysis, loadKbNames, upsertSampleAnalysis, type SampleAnalysisData } from "@/lib/domain/scoring/sample-analysis";
import { isScoreStale, releaseGoldOf } from "@/lib/core/scoring/score-staleness";
import { recordRescore } from "@/lib/domain/scoring/record-rescore";
import { storeScores } from "@/lib/domain/scoring/store-score";
import { recordPublicScore } from "@/lib/domain/public-log/record-public-score";
import { buildScoreReport, SCORER_VERSION, scorePredictions } from "@/lib/core/scoring/score-report";
import type { SampleOutcomes } from "@/lib/core/scoring/outcome-codes";
import type { ScoreReport } from "@/lib/core/scoring/report-schema";
import { readStoredReport } from "@/lib/core/scoring/stored-report";
import { sliceReportsOf, type SliceReports } from "@/lib/core/slices/slice-reports";
import { loadSplitGold } from "@/lib/domain/scoring/load-gold";
import { PROBE_FLAGS_VERSION, readProbeFlags, type ProbeFlags } from "@/lib/core/integrity/probe-flags-schema";
import { getFileStore } from "@/lib/platform/files/file-store";
import { loadAnswerIndex } from "@/lib/domain/scoring/load-gold";
import { readPredictionFile } from "@/lib/domain/uploads/read-prediction-file";
import { compareWithBaselines, lockSplitComparisons, refreshComparisons, REFRESH_TIMEOUT_MS } from "@/lib/domain/scoring/refresh-comparisons";
import { refundPlatformFault, type PlatformRefundOutcome } from "@/lib/domain/quotas/quota-ledger";

/** A stored file that fails validation: retrying cannot help. */
export class InvalidSubmissionError extends Error {
  override readonly name = "InvalidSubmissionError";
}

type ProcessOutcome = "scored" | "already-scored" | "missing";

const LISTED_IN_REASON = 10;

/**
 * Scores one submission with the shared lib/core/scoring core against the gold in
 * the database, in four steps: mark it SCORING, score it, then store the
 * score, mark it SCORED and compare it with the baselines in one transaction
 * (its owner never sees a scored submission without its comparisons). Safe to
 * run twice: the score is an upsert keyed by the submission, comparisons are
 * replaced, and an up-to-date score is left alone.
 */
export async function processSubmission(submissionId: string, options: { force?: boolean } = {}): Promise<ProcessOutcome> {
  const submission = await findSubmissionToScore(submissionId);
  if (!submission) return "missing";
  const goldSha256 = releaseGoldOf(submission.release.goldSha256, submission.split) ?? "";
  const isCurrent = submission.score !== null && !isScoreStale(submission.score, goldSha256);
  if (!options.force && submission.status === "SCORED" && isCurrent) {
    // A repeated delivery may follow a crash between scoring and comparing: finish that part.
    await refreshComparisons(submission.releaseId, submission.split, submissionId);
    return "already-scored";
  }

  await markSubmissionScoring(submissionId);
  const env = getEnv();
  const reportOptions = { split: submission.split === "train" ? ("dev" as const) : submission.split, seed: env.BOOTSTRAP_SEED, resamples: env.BOOTSTRAP_RESAMPLES };
  const scored = (!options.force && (await scoreFromStoredOutcomes(submission, goldSha256, reportOptions))) || (await scoreFromFile(submission, reportOptions));

  await db.$transaction(
    async (tx) => {
      await lockSplitComparisons(tx, submission.releaseId, submission.split);
      // A re-score that changes anything is recorded for the release page (lib/domain/scoring/record-rescore.ts).
      const isChanged = submission.score !== null && (await recordRescore(tx, { submission, previous: submission.score, report: scored.slices?.ranking ?? scored.report, goldSha256 }));
      await storeScores(tx, [{ submissionId, report: scored.report, outcomes: scored.outcomes.codes, goldSha256, probeFlags: scored.probeFlags, slices: scored.slices }]);
      if (scored.analysis !== null) await upsertSampleAnalysis(submissionId, scored.analysis, tx);
      await markSubmissionScored(tx, submissionId);
      await compareWithBaselines(tx, submission.releaseId, submission.split, submissionId);
      // What readers see changed with it: the public log, with a re-score's errata (docs/public-log.md).
      await recordPublicScore(tx, { submission, previous: submission.score, isChanged, goldSha256 });
    },
    { timeout: REFRESH_TIMEOUT_MS, maxWait: REFRESH_TIMEOUT_MS },
  );
  return "scored";
}

type SubmissionToScore = NonNullable<Awaited<ReturnType<typeof findSubmissionToScore>>>;
type ReportOptions = { split: "dev" | "test"; seed: number; resamples: number };
type Scored = {
  report: ScoreReport;
  outcomes: SampleOutcomes;
  slices: SliceReports | null;
  /** Null when the stored error analysis still holds (the same scorer rules, the same outcomes). */
  analysis: SampleAnalysisData | null;
  probeFlags: ProbeFlags | null;
};

function findSubmissionToScore(submissionId: string) {
  return db.submission.findUnique({ where: { id: submissionId }, include: { release: true, score: true } });
}

/** Reads and validates the stored file, then scores it: the whole path, for a new file or changed scorer rules or gold. */
async function scoreFromFile(submission: SubmissionToScore, reportOptions: ReportOptions): Promise<Scored> {
  const { gold, validation } = await readPredictionFile(getFileStore().read(submission.fileSha256), {
    releaseId: submission.releaseId,
    split: submission.split,
    track: submission.track,
  });
  if (!validation.ok) {
    const listed = validation.problems.slice(0, LISTED_IN_REASON).map((problem) => (problem.line ? `line ${problem.line}: ${problem.message}` : problem.message));
    throw new InvalidSubmissionError(`The stored file no longer validates against the ${submission.split} split: ${listed.join("; ")}`);
  }
  const { report, outcomes } = scorePredictions({ ...validation, ...reportOptions, gold: gold.gold, kb: gold.kb });
  return {
    report,
    outcomes,
    // Protocol section 12: the owner's numbers come from the feedback slice, everything public from the ranking slice.
    slices: sliceReportsOf(gold, outcomes, reportOptions),
    // Error classes (docs/scoring.md): per sample on dev, aggregates only on test.
    analysis: buildSampleAnalysis({ ...validation, split: submission.split, gold: gold.gold, kb: gold.kb, outcomes, names: await loadKbNames(submission.releaseId), slices: gold.slices }),
    // Protocol section 12: maintainers see these before publishing a test file (docs/integrity.md).
    probeFlags: gold.knownSplitQids
      ? computeProbeFlags({
          ...validation,
          knownSplitQids: gold.knownSplitQids,
          answerIndex: await loadAnswerIndex(submission.releaseId),
          // Collections only: test.jsonl names them; nothing else of the gold reaches the flags.
          collectionOf: new Map(gold.gold.map((record) => [record.id, record.collection])),
          // A group of a few samples whose answers all miss is ordinary for an honest system; below the default
          // min_group_n (a small release may set a lower one so that its views show numbers) it says nothing.
          minGroupN: Math.max(submission.release.minGroupN, DEFAULT_MIN_GROUP_N),
        })
      : null,
  };
}

/**
 * When only what the platform keeps beside a report changed (a new
 * PLATFORM_SCORING_VERSION under the same scorer rules and the same gold), the
 * stored per-sample outcomes are still exact: the reports are rebuilt from
 * them without reading the file again, and the error analysis and probe flags
 * (made from the same answers) stay. Null when that does not hold.
 */
async function scoreFromStoredOutcomes(submission: SubmissionToScore, goldSha256: string, reportOptions: ReportOptions): Promise<Scored | null> {
  const stored = submission.score;
  if (stored === null || stored.goldSha256 !== goldSha256 || readStoredReport(stored.report)?.scorer_version !== SCORER_VERSION) return null;
  const gold = await loadSplitGold(submission.releaseId, submission.split);
  if (stored.outcomes.length !== gold.gold.length) return null;
  const outcomes: SampleOutcomes = { track: submission.track, codes: new Uint8Array(stored.outcomes) };
  // Flags of an earlier version lack a flag that only the answers can give: those files are read again.
  const probeFlags = submission.split === "test" ? readProbeFlags(stored.probeFlags) : null;
  if (submission.split === "test" && probeFlags?.version !== PROBE_FLAGS_VERSION) return null;
  return {
    report: buildScoreReport({ ...reportOptions, gold: gold.gold, outcomes }),
    outcomes,
    slices: sliceReportsOf(gold, outcomes, reportOptions),
    analysis: null,
    probeFlags,
  };
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

/** What the owner reads about their test quota after an internal failure: what actually happened to the charge. */
const QUOTA_SENTENCE: Record<PlatformRefundOutcome, string> = {
  refunded: "Its test quota charge was refunded (see the quota ledger on your account page).",
  already_refunded: "Its test quota charge was refunded (see the quota ledger on your account page).",
  not_charged: "It was not charged to any test quota, so there was nothing to refund.",
  feedback_shown: "Its test quota charge stays: its scores were shown to you before this re-score failed.",
};

/**
 * Records a failure the owner can act on (INVALID) or an internal fault after the last retry (INTERNAL).
 * An internal fault is the platform's, not the file's: the charge of a test file that never reached SCORED
 * is refunded in the same transaction, with the reason (a second call finds the refund made and adds none),
 * and `reason` is followed by a sentence saying what happened to the charge.
 */
export async function markSubmissionFailed(submissionId: string, kind: "INVALID" | "INTERNAL", reason: string): Promise<void> {
  const failed = await db.$transaction(async (tx) => {
    const refund = kind === "INTERNAL" ? await refundPlatformFault(tx, submissionId, `Scoring failed on the platform's side: ${reason}`) : null;
    await tx.submission.updateMany({
      where: { id: submissionId },
      data: { status: "FAILED", failureKind: kind, failureReason: refund === null ? reason : `${reason} ${QUOTA_SENTENCE[refund]}`, finishedAt: new Date() },
    });
    return tx.submission.findUnique({ where: { id: submissionId }, select: { isBaseline: true, releaseId: true, split: true } });
  });
  // The baselines scored while this one waited left the split's comparisons to it (refresh-comparisons.ts): redo them now.
  if (failed?.isBaseline) await refreshComparisons(failed.releaseId, failed.split);
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
