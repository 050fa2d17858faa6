import "server-only";
import { randomUUID } from "node:crypto";
import type { Prisma } from "@/lib/platform/generated/prisma";
import type { ScoreReport } from "@/lib/core/scoring/report-schema";
import { PLATFORM_SCORING_VERSION } from "@/lib/core/scoring/score-report";
import { readStoredReport } from "@/lib/core/scoring/stored-report";

/**
 * Records what a re-score changed (docs/leaderboard.md, "Releases"): when a
 * submission that already had a score is scored again, one RescoreEvent with
 * the scorer version, gold checksum and overall metrics before and after.
 * Nothing is recorded when nothing changed, so a job that runs twice leaves
 * one event. Metrics are stored unrounded; the release page shows them
 * through lib/core/disclosure. Call it in the transaction that stores the new score.
 */

type PreviousScore = { scorerVersion: string; goldSha256: string; report: unknown; rankingReport: unknown };

type RescoreToRecord = {
  submission: { id: string; releaseId: string; split: "train" | "dev" | "test"; track: "open" | "closed" };
  previous: PreviousScore;
  /** The new report whose metrics the release page shows: a test file's ranking slice, a dev file's whole split. */
  report: ScoreReport;
  goldSha256: string;
};

function metricsOf(report: ScoreReport | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(report?.metrics ?? {})) {
    if (typeof value === "number") out[key] = value;
  }
  return out;
}

function isSameMetrics(before: Record<string, number>, after: Record<string, number>): boolean {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].every((key) => before[key] === after[key]);
}

/** Writes the event when something changed; returns whether it did. */
export async function recordRescore(client: Prisma.TransactionClient, rescore: RescoreToRecord): Promise<boolean> {
  // A test score's public numbers are its ranking slice's (protocol section 12); scores from before the slices had only the whole split.
  const before = metricsOf(readStoredReport(rescore.previous.rankingReport ?? rescore.previous.report));
  const after = metricsOf(rescore.report);
  const isUnchanged =
    rescore.previous.scorerVersion === PLATFORM_SCORING_VERSION && rescore.previous.goldSha256 === rescore.goldSha256 && isSameMetrics(before, after);
  if (isUnchanged || rescore.submission.split === "train") return false;
  // JSON as text, as store-score.ts does: Prisma's JSON parameters can move a double by one ulp.
  await client.$executeRaw`
    INSERT INTO "RescoreEvent" ("id", "releaseId", "submissionId", "split", "track", "beforeScorerVersion", "afterScorerVersion",
                                "beforeGoldSha256", "afterGoldSha256", "beforeMetrics", "afterMetrics", "createdAt")
    VALUES (${randomUUID()}, ${rescore.submission.releaseId}, ${rescore.submission.id}, ${rescore.submission.split}::"Split", ${rescore.submission.track}::"Track",
            ${rescore.previous.scorerVersion}, ${PLATFORM_SCORING_VERSION}, ${rescore.previous.goldSha256}, ${rescore.goldSha256},
            ${JSON.stringify(before)}::jsonb, ${JSON.stringify(after)}::jsonb, now())`;
  return true;
}
