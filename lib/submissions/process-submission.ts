import "server-only";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma";
import { computeProbeFlags } from "@/lib/integrity/probe-flags";
import { probeFlagsSchema } from "@/lib/integrity/probe-flags-schema";
import { validatePredictionFile } from "@/lib/io/validate-prediction-file";
import { getFileStore } from "@/lib/files/file-store";
import { loadSplitGold } from "@/lib/submissions/load-gold";
import { refreshComparisons } from "@/lib/submissions/refresh-comparisons";
import { buildSampleAnalysis, loadKbNames, upsertSampleAnalysis } from "@/lib/submissions/sample-analysis";
import { PRIMARY_METRIC, UNIFIED_METRIC } from "@/lib/scoring/tracks";
import { SCORER_VERSION, scorePredictions } from "@/lib/scoring/score-report";
import { isScoreStale, releaseGoldOf } from "@/lib/scores/score-staleness";

/** A stored file that fails validation: retrying cannot help. */
export class InvalidSubmissionError extends Error {
  override readonly name = "InvalidSubmissionError";
}

export type ProcessOutcome = "scored" | "already-scored" | "missing";

const LISTED_IN_REASON = 10;

/**
 * Scores one submission with the shared lib/scoring core against the gold in
 * the database. Safe to run twice: the score is an upsert keyed by the
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

  await db.submission.update({
    where: { id: submissionId },
    data: { status: "SCORING", startedAt: new Date(), attempts: { increment: 1 } },
  });

  const { gold, kb, sampleIds, knownSplitQids } = await loadSplitGold(submission.releaseId, submission.split);
  const validation = await validatePredictionFile(getFileStore().read(submission.fileSha256), {
    sampleIds,
    kbQids: kb,
    track: submission.track,
    split: submission.split,
  });
  if (!validation.ok) {
    const listed = validation.problems.slice(0, LISTED_IN_REASON).map((problem) => (problem.line ? `line ${problem.line}: ${problem.message}` : problem.message));
    throw new InvalidSubmissionError(`The stored file no longer validates against the ${submission.split} split: ${listed.join("; ")}`);
  }

  const env = getEnv();
  const { report, outcomes } = scorePredictions({
    ...validation,
    gold,
    kb,
    split: submission.split === "train" ? "dev" : submission.split,
    seed: env.BOOTSTRAP_SEED,
    resamples: env.BOOTSTRAP_RESAMPLES,
  });
  // Error classes (docs/scoring.md): per sample on dev, aggregates only on test.
  const analysis = buildSampleAnalysis({ ...validation, split: submission.split, gold, kb, outcomes, names: await loadKbNames(submission.releaseId) });
  const metrics = report.metrics as Record<string, number>;
  // Protocol section 12: maintainers see these before publishing a test file (docs/integrity.md).
  const probeFlags = knownSplitQids ? probeFlagsSchema.parse(computeProbeFlags({ ...validation, knownSplitQids })) : null;
  const scoreData = {
    scorerVersion: SCORER_VERSION,
    goldSha256,
    n: report.n,
    report,
    outcomes: Buffer.from(outcomes.codes),
    primary: metrics[PRIMARY_METRIC[submission.track]] ?? 0,
    unified: metrics[UNIFIED_METRIC[submission.track]] ?? 0,
    probeFlags: probeFlags ?? Prisma.DbNull,
    computedAt: new Date(),
  };
  await db.$transaction([
    db.score.upsert({ where: { submissionId }, create: { submissionId, ...scoreData }, update: scoreData }),
    // Prisma's query compiler parses number parameters imprecisely (up to 1 ulp
    // off, prisma/prisma#22249), so the stored report would differ from the
    // CLI's in the last digit. Text parameters reach PostgreSQL untouched.
    db.$executeRaw`UPDATE "Score" SET "report" = ${JSON.stringify(report)}::jsonb, "primary" = ${String(scoreData.primary)}::float8, "unified" = ${String(scoreData.unified)}::float8 WHERE "submissionId" = ${submissionId}`,
    upsertSampleAnalysis(submissionId, analysis),
  ]);
  await refreshComparisons(submission.releaseId, submission.split, submissionId, { markScored: true });
  return "scored";
}

/** Records a failure the owner can act on (INVALID) or an internal fault after the last retry (INTERNAL). */
export async function markSubmissionFailed(submissionId: string, kind: "INVALID" | "INTERNAL", reason: string): Promise<void> {
  await db.submission.updateMany({
    where: { id: submissionId },
    data: { status: "FAILED", failureKind: kind, failureReason: reason, finishedAt: new Date() },
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
