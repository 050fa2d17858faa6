import type { EntityType } from "@/lib/core/dataset/release-schema";
import { entryEstimate } from "@/lib/core/leaderboard/build-leaderboard";
import { isTypeDisclosed, publicOrderValueOf } from "@/lib/core/ranking/view-ranks";
import type { EntrySource, ReleaseRef, ReportedSource } from "@/lib/core/leaderboard/leaderboard-types";
import { buildProgressTimeline, SOTA_SIGNIFICANCE_LEVEL, type PairReader, type ProgressCandidate, type ProgressPoint, type ProgressTimeline } from "./progress";
import { isTrackInView, rankMetricOf, reportMetricFor, type LeaderboardTrack, type ViewMetric } from "@/lib/core/leaderboard/views";

/**
 * The progress timeline of one leaderboard view (track x entity type): the
 * view's public entries (every one, not only primaries: a state of the art is
 * one whoever holds it) and reported results as candidates of the rule in
 * progress.ts. Values are the disclosed ones the leaderboard shows (section
 * 12); outcomes stay here and only b, c and p leave, as on the leaderboard.
 * Pure: the caller passes what the leaderboard loader read.
 */

const SOTA_TEST_NAME = "the view's paired test (protocol section 13: McNemar's exact test, Holm-adjusted among the view's entries)";

export type ProgressView = {
  release: ReleaseRef;
  track: LeaderboardTrack;
  type: EntityType | null;
  metric: ViewMetric;
  significanceLevel: number;
  test: string;
  /** Why there is no timeline (a type too small to show on the test split); null when there is one. */
  unavailable: string | null;
  points: ProgressPoint[];
  undatedReported: ProgressTimeline["undatedReported"];
};

type ProgressViewInput = {
  release: ReleaseRef;
  goldSha256: string | null;
  track: LeaderboardTrack;
  type: EntityType | null;
  entries: readonly EntrySource[];
  reported: readonly ReportedSource[];
  goldTypes: readonly EntityType[];
  minGroupN: number;
  /** The leaderboard view's reading of a pair (section 13), so each step prints the leaderboard's verdict. */
  readPair: PairReader;
};

function reportedValue(result: ReportedSource, metric: ViewMetric, type: EntityType | null): number | null {
  const key = reportMetricFor(metric, result.track);
  if (key === null) return null;
  const value = type === null ? result.metrics[key] : result.byType?.[type]?.metrics[key];
  return value ?? null;
}

export function buildProgressView(input: ProgressViewInput): ProgressView {
  const metric = rankMetricOf(input.track);
  const base = {
    release: input.release,
    track: input.track,
    type: input.type,
    metric,
    significanceLevel: SOTA_SIGNIFICANCE_LEVEL,
    test: SOTA_TEST_NAME,
  };
  const keep = input.type === null ? null : input.goldTypes.map((sampleType) => sampleType === input.type);
  const size = keep === null ? input.goldTypes.length : keep.filter(Boolean).length;
  if (input.type !== null && !isTypeDisclosed(input.goldTypes, input.type, input.minGroupN)) {
    // Section 12: a type the public report hides (too small, or hidden with the smaller ones) has no timeline either.
    const why =
      size < input.minGroupN
        ? `${input.type} has ${size} test samples, fewer than the release's minimum group size of ${input.minGroupN}`
        : `${input.type} is hidden with the smaller types, whose numbers the overall ones minus its own would give back`;
    return { ...base, unavailable: `${why}: no numbers are shown for it.`, points: [], undatedReported: [] };
  }

  const entries: ProgressCandidate[] = input.entries
    .filter((entry) => isTrackInView(input.track, entry.track))
    .map((entry) => ({
      id: entry.id,
      system: entry.system,
      kind: entry.isBaseline ? "baseline" : "submission",
      date: entry.date,
      value: entryEstimate(entry, metric, input.type)?.value ?? null,
      order: metric === "alias" || metric === "hit@1" || metric === "unified" ? publicOrderValueOf(entry, metric, input.type) : (entryEstimate(entry, metric, input.type)?.value ?? null),
      isTested: entry.score.goldSha256 === input.goldSha256 && entry.outcomes.codes.length === input.goldTypes.length,
      // The loader reads public entries only (lib/domain/scoring/public-entry-rule.ts).
      isPublic: true,
    }));
  const reported: ProgressCandidate[] = input.reported
    .filter((result) => isTrackInView(input.track, result.track))
    .map((result) => ({
      id: `reported:${result.id}`,
      system: result.name,
      kind: "reported",
      date: result.date,
      value: reportedValue(result, metric, input.type),
      order: reportedValue(result, metric, input.type),
      isTested: false,
      isPublic: true,
    }));
  const timeline = buildProgressTimeline([...entries, ...reported], input.readPair);
  return { ...base, unavailable: null, points: timeline.points, undatedReported: timeline.undatedReported };
}
