import { norm, tokensOfNormalized } from "@/lib/scoring/normalize";
import type { TrackPredictions } from "@/lib/scoring/track-predictions";
import { PROBE_FLAGS_VERSION, probeFlagsSchema, type ProbeFlag, type ProbeFlagId, type ProbeFlags } from "./probe-flags-schema";

/**
 * Probe flags of a test file (protocol section 12): signs that a file was
 * built to read the gold rather than to answer. Computed from the parsed
 * predictions and the QIDs of the train and dev splits only, never from the
 * test gold, so they say nothing about which answers are right. The
 * thresholds and why they are where they are: docs/integrity.md.
 */

/** A flag is raised when its share is strictly above its threshold. */
export const PROBE_FLAG_THRESHOLDS: Readonly<Record<ProbeFlagId, number>> = {
  single_entry_rankings: 0.5,
  top1_from_known_splits: 0.9,
  most_common_prediction: 0.2,
  many_names: 0.2,
  short_predictions: 0.2,
};

export const PROBE_FLAG_LABELS: Readonly<Record<ProbeFlagId, string>> = {
  single_entry_rankings: "rankings of length one",
  top1_from_known_splits: "top-ranked entity from the train or dev split (never test gold)",
  most_common_prediction: "samples answered by the most common prediction",
  many_names: "predictions of more than 12 tokens (many names)",
  short_predictions: "empty or one-character predictions",
};

/** More distinct tokens (protocol section 5) than this and a prediction lists names rather than naming one. */
export const MANY_NAMES_TOKENS = 12;

export type ComputeProbeFlagsOptions = TrackPredictions & {
  /** QIDs of the release's train and dev entities; splits are entity-level, so none is test gold. */
  knownSplitQids: ReadonlySet<string>;
};

export function computeProbeFlags(options: ComputeProbeFlagsOptions): ProbeFlags {
  const n = options.predictions.size;
  const flags = options.track === "closed" ? closedFlags(options.predictions, options.knownSplitQids) : openFlags(options.predictions);
  return probeFlagsSchema.parse({
    version: PROBE_FLAGS_VERSION,
    track: options.track,
    n,
    flags: flags.map(({ id, count }) => toFlag(id, count, n)),
  });
}

function toFlag(id: ProbeFlagId, count: number, n: number): ProbeFlag {
  const value = n === 0 ? 0 : count / n;
  const threshold = PROBE_FLAG_THRESHOLDS[id];
  return { id, label: PROBE_FLAG_LABELS[id], value, threshold, raised: value > threshold, count };
}

type FlagCount = { id: ProbeFlagId; count: number };

function closedFlags(rankings: ReadonlyMap<string, readonly string[]>, knownSplitQids: ReadonlySet<string>): FlagCount[] {
  let single = 0;
  let known = 0;
  for (const ranking of rankings.values()) {
    if (ranking.length === 1) single += 1;
    const top = ranking[0];
    if (top !== undefined && knownSplitQids.has(top)) known += 1;
  }
  return [
    { id: "single_entry_rankings", count: single },
    { id: "top1_from_known_splits", count: known },
  ];
}

function openFlags(predictions: ReadonlyMap<string, string>): FlagCount[] {
  const counts = new Map<string, number>();
  let manyNames = 0;
  let short = 0;
  for (const prediction of predictions.values()) {
    const normalized = norm(prediction);
    // The empty string is a prediction like any other: one empty answer for most samples is the same sign.
    counts.set(normalized, (counts.get(normalized) ?? 0) + 1);
    if (tokensOfNormalized(normalized).size > MANY_NAMES_TOKENS) manyNames += 1;
    if ([...normalized].length <= 1) short += 1;
  }
  let mostCommon = 0;
  for (const count of counts.values()) mostCommon = Math.max(mostCommon, count);
  return [
    { id: "most_common_prediction", count: mostCommon },
    { id: "many_names", count: manyNames },
    { id: "short_predictions", count: short },
  ];
}
