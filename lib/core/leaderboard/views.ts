import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-constants";
import {
  CLOSED_METRIC_KEYS,
  OPEN_METRIC_KEYS,
  PRIMARY_METRIC,
  UNIFIED_METRIC,
  type MetricKey,
  type Track,
} from "@/lib/core/scoring/tracks";

/**
 * The three leaderboard views and the metric columns each shows (protocol
 * sections 6, 7 and 11). Shared by pages, the JSON API and the exports, so
 * they always show the same columns under the same names.
 */

export const LEADERBOARD_TRACKS = ["open", "closed", "unified"] as const;
export type LeaderboardTrack = (typeof LEADERBOARD_TRACKS)[number];

/** A metric column of a view: a report metric, or the unified alias-aware top-1 accuracy. */
export type ViewMetric = MetricKey | "unified";

export const TRACK_LABELS: Record<LeaderboardTrack, string> = {
  open: "Open-world",
  closed: "Closed-world",
  unified: "Unified (both tracks)",
};

export const METRIC_LABELS: Record<ViewMetric, string> = {
  exact: "Exact",
  alias: "Alias",
  contain: "Contain",
  jaccard: "Jaccard",
  "hit@1": "Hit@1",
  "hit@3": "Hit@3",
  "hit@5": "Hit@5",
  "hit@10": "Hit@10",
  mrr: "MRR",
  "alias_hit@1": "Alias Hit@1",
  unified: "Alias-aware top-1",
};

/** Column groups of a view's metrics, in display order. */
export type MetricGroup = { id: string; label: string; metrics: readonly ViewMetric[] };

const VIEW_GROUPS: Record<LeaderboardTrack, readonly MetricGroup[]> = {
  open: [{ id: "tiers", label: "Accuracy by matching tier (cumulative)", metrics: OPEN_METRIC_KEYS }],
  closed: [
    { id: "retrieval", label: "Retrieval", metrics: ["hit@1", "hit@3", "hit@5", "hit@10", "mrr"] },
    { id: "alias-aware", label: "Alias-aware", metrics: ["alias_hit@1"] },
  ],
  unified: [{ id: "unified", label: "Alias-aware accuracy", metrics: ["unified"] }],
};

export function metricGroupsOf(track: LeaderboardTrack): readonly MetricGroup[] {
  return VIEW_GROUPS[track];
}

export function viewMetricsOf(track: LeaderboardTrack): readonly ViewMetric[] {
  return VIEW_GROUPS[track].flatMap((group) => group.metrics);
}

/** The metric a view ranks by: the track's primary metric, or the unified one. */
export function rankMetricOf(track: LeaderboardTrack): ViewMetric {
  return track === "unified" ? "unified" : PRIMARY_METRIC[track];
}

/** Whether entries of `entryTrack` appear in the view. */
export function isTrackInView(view: LeaderboardTrack, entryTrack: Track): boolean {
  return view === "unified" || view === entryTrack;
}

/**
 * The report metric of an entry of `entryTrack` that a view column reads:
 * "unified" is `alias` for open-world entries and `alias_hit@1` for
 * closed-world ones (section 7); other metrics exist only on their own track.
 */
export function reportMetricFor(metric: ViewMetric, entryTrack: Track): MetricKey | null {
  if (metric === "unified") {
    return UNIFIED_METRIC[entryTrack];
  }
  const keys: readonly MetricKey[] = entryTrack === "open" ? OPEN_METRIC_KEYS : CLOSED_METRIC_KEYS;
  return keys.includes(metric) ? metric : null;
}

/** MRR is a mean reciprocal rank, not a share: it is shown as a decimal, never as a percentage. */
export function isRateMetric(metric: ViewMetric): boolean {
  return metric !== "mrr";
}

/** URL slugs of the entity types ("Military Unit" has a space). */
export const TYPE_SLUGS: Record<EntityType, string> = {
  Place: "place",
  Organization: "organization",
  Person: "person",
  Event: "event",
  Work: "work",
  "Military Unit": "military-unit",
  Other: "other",
};

/** The entity type of a slug or of its exact name ("military-unit", "Military Unit"), case-insensitively. */
export function typeFromSlug(value: string): EntityType | null {
  const wanted = value.trim().toLowerCase();
  for (const type of ENTITY_TYPES) {
    if (TYPE_SLUGS[type] === wanted || type.toLowerCase() === wanted) {
      return type;
    }
  }
  return null;
}
