import "server-only";
import { Prisma } from "@/lib/platform/generated/prisma";
import type { ProbeFlags } from "@/lib/core/integrity/probe-flags-schema";
import type { ScoreReport } from "@/lib/core/scoring/report-schema";
import { PLATFORM_SCORING_VERSION, primaryMetricOf, unifiedMetricOf } from "@/lib/core/scoring/score-report";
import type { SliceReports } from "@/lib/core/slices/slice-reports";

/**
 * The one writer of Score rows: the worker, the seeder and the integration
 * fixtures all store a score through `storeScores`, so what a test reads is
 * what the worker wrote.
 *
 * Floats go in as text. Prisma's query compiler parses number parameters
 * imprecisely (up to 1 ulp off, prisma/prisma#22249), so a report stored
 * through Prisma's JSON or Float parameters would differ from the CLI's in
 * the last digit (0.30000000000000004 became 0.3); text reaches PostgreSQL
 * untouched, and `float8` / `jsonb` parse it exactly.
 */

export type ScoreToStore = {
  submissionId: string;
  /** The section 11 report as lib/core/scoring returns it (its comparisons live in Comparison rows). */
  report: ScoreReport;
  /** Per-sample outcome codes in gold order (lib/core/scoring/outcome-codes.ts). */
  outcomes: Uint8Array;
  /** SHA-256 of the split's gold the score was computed against (protocol section 10). */
  goldSha256: string;
  /** Test files only (docs/integrity.md), as computeProbeFlags returns them (schema-checked); null for dev files. */
  probeFlags?: ProbeFlags | null;
  /** Test files only: the reports of the feedback and ranking slices (protocol section 12); null for dev files. */
  slices?: SliceReports | null;
};

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters (14 a row). */
const ROWS_PER_STATEMENT = 500;

const jsonOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));
const floatOrNull = (value: number | undefined): string | null => (value === undefined ? null : String(value));

function scoreValues(score: ScoreToStore): Prisma.Sql {
  const { feedback, ranking } = score.slices ?? {};
  return Prisma.sql`(${score.submissionId}, ${PLATFORM_SCORING_VERSION}, ${score.goldSha256}, ${score.report.n},
    ${JSON.stringify(score.report)}::jsonb, ${Buffer.from(score.outcomes)}, ${String(primaryMetricOf(score.report))}::float8,
    ${String(unifiedMetricOf(score.report))}::float8, ${jsonOrNull(score.probeFlags)}::jsonb,
    ${jsonOrNull(feedback)}::jsonb, ${jsonOrNull(ranking)}::jsonb,
    ${floatOrNull(feedback && primaryMetricOf(feedback))}::float8, ${floatOrNull(ranking && primaryMetricOf(ranking))}::float8,
    ${floatOrNull(ranking && unifiedMetricOf(ranking))}::float8, now())`;
}

/**
 * Inserts or replaces the score of each submission (keyed by submissionId, so
 * a job that runs twice leaves one row). Pass a transaction client to make it
 * part of a larger write.
 */
export async function storeScores(client: Prisma.TransactionClient, scores: readonly ScoreToStore[]): Promise<void> {
  for (let start = 0; start < scores.length; start += ROWS_PER_STATEMENT) {
    const chunk = scores.slice(start, start + ROWS_PER_STATEMENT);
    await client.$executeRaw`
      INSERT INTO "Score" ("submissionId", "scorerVersion", "goldSha256", "n", "report", "outcomes", "primary", "unified", "probeFlags",
                           "feedbackReport", "rankingReport", "feedbackPrimary", "rankingPrimary", "rankingUnified", "computedAt")
      VALUES ${Prisma.join(chunk.map(scoreValues))}
      ON CONFLICT ("submissionId") DO UPDATE SET
        "scorerVersion" = EXCLUDED."scorerVersion", "goldSha256" = EXCLUDED."goldSha256", "n" = EXCLUDED."n",
        "report" = EXCLUDED."report", "outcomes" = EXCLUDED."outcomes", "primary" = EXCLUDED."primary",
        "unified" = EXCLUDED."unified", "probeFlags" = EXCLUDED."probeFlags",
        "feedbackReport" = EXCLUDED."feedbackReport", "rankingReport" = EXCLUDED."rankingReport",
        "feedbackPrimary" = EXCLUDED."feedbackPrimary", "rankingPrimary" = EXCLUDED."rankingPrimary",
        "rankingUnified" = EXCLUDED."rankingUnified", "computedAt" = EXCLUDED."computedAt"`;
  }
}
