/**
 * The two tracks and their metrics (protocol sections 6, 7 and 11). The key
 * lists are in report order; every report and table follows them.
 */

export const TRACKS = ["open", "closed"] as const;
export type Track = (typeof TRACKS)[number];

export const OPEN_METRIC_KEYS = ["exact", "alias", "contain", "jaccard"] as const;
export type OpenMetricKey = (typeof OPEN_METRIC_KEYS)[number];

export const CLOSED_METRIC_KEYS = ["hit@1", "hit@3", "hit@5", "hit@10", "mrr", "alias_hit@1"] as const;
export type ClosedMetricKey = (typeof CLOSED_METRIC_KEYS)[number];

export type MetricKey = OpenMetricKey | ClosedMetricKey;

/** The primary metric of each track (sections 6 and 7). */
export const PRIMARY_METRIC = { open: "alias", closed: "hit@1" } as const satisfies {
  open: OpenMetricKey;
  closed: ClosedMetricKey;
};

/** The alias-aware top-1 metric that ranks entries across both tracks (section 7). */
export const UNIFIED_METRIC = { open: "alias", closed: "alias_hit@1" } as const satisfies {
  open: OpenMetricKey;
  closed: ClosedMetricKey;
};

/** A track as sentences name it. */
export const TRACK_NAMES: Record<Track, string> = { open: "open-world", closed: "closed-world" };

export function metricKeysOf(track: Track): readonly MetricKey[] {
  return track === "open" ? OPEN_METRIC_KEYS : CLOSED_METRIC_KEYS;
}

/** Splits a prediction file can be scored on (section 4). */
export const SCORED_SPLITS = ["dev", "test"] as const;
export type ScoredSplit = (typeof SCORED_SPLITS)[number];
