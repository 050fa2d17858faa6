import { z } from "zod";
import { PLATFORM_SCORING_VERSION, SCORER_VERSION } from "@/lib/core/scoring/score-report";

/**
 * Protocol section 10: a stored score records the scorer version and the
 * SHA-256 of the gold it was computed against; a change of either makes it
 * stale until re-scored. The one place that says so.
 */

/** DatasetRelease.goldSha256: split -> SHA-256 of that split's gold. */
const releaseGoldSchema = z.record(z.string(), z.string());

/** The release's current gold SHA-256 of one split (null when the release has none for it). */
export function releaseGoldOf(releaseGold: unknown, split: string): string | null {
  const parsed = releaseGoldSchema.safeParse(releaseGold);
  return parsed.success ? (parsed.data[split] ?? null) : null;
}

type ScoreStamp = { scorerVersion: string; goldSha256: string };

/** Whether a stored score was made by another scorer version than `currentScorer` or against other gold than `currentGold`. */
export function isScoreStale(score: ScoreStamp, currentGold: string | null, currentScorer: string = PLATFORM_SCORING_VERSION): boolean {
  return score.scorerVersion !== currentScorer || score.goldSha256 !== currentGold;
}

/**
 * Whether a stored error analysis (SampleAnalysis) was made by the current
 * scorer: the error classes depend on the scorer only, never on the slices, so
 * it carries the report's SCORER_VERSION, not the platform's.
 */
export function isAnalysisCurrent(analysis: { scorerVersion: string } | null | undefined): boolean {
  return analysis?.scorerVersion === SCORER_VERSION;
}
