import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-constants";
import { bootstrapIntervals, type Interval } from "./bootstrap";
import { compareWithBaselines, type NamedOutcomes } from "./compare";
import type { GoldRecord, KbIndex } from "./gold";
import { DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED } from "./limits";
import { countCodes, metricsFromCounts, metricTablesOf } from "./metric-values";
import type { SampleOutcomes } from "./outcome-codes";
import type { ClosedScoreReport, OpenScoreReport, ScoreReport } from "./report-schema";
import { computeOutcomes, type TrackPredictions } from "./track-predictions";
import { CLOSED_METRIC_KEYS, OPEN_METRIC_KEYS, type MetricKey, type ScoredSplit, type Track } from "./tracks";

/**
 * The one entry point of scoring (protocol sections 6-11): parsed predictions,
 * gold and KB in; the section 11 report and the per-sample outcomes out.
 */

/** Semver of the scoring rules. A change makes stored scores stale (section 10). */
export const SCORER_VERSION = "1.1.0";

/**
 * Semver of what the platform stores for a score (Score.scorerVersion): the
 * scorer's rules plus what is kept beside its report. 1.2.0 (protocol v1.2)
 * adds the reports of the test split's feedback and ranking slices; 1.3.0
 * (protocol v1.3) keys the slices by the gold entity; the
 * report itself, and so the offline scorer's output, is that of SCORER_VERSION.
 */
export const PLATFORM_SCORING_VERSION = "1.3.0";

export type ReportOptions = {
  split: ScoredSplit;
  /** The gold samples of the split, in the order the outcomes are stored. */
  gold: readonly Pick<GoldRecord, "id" | "type" | "collection">[];
  /** Systems to compare with, each with outcomes over the same gold in the same order. */
  baselines?: readonly NamedOutcomes[];
  seed?: number;
  resamples?: number;
  /**
   * Bootstrap intervals already computed for some groups (by bootstrapGroupsOf
   * and bootstrapIntervals with the same seed and resamples, e.g. on another
   * thread), keyed as bootstrapGroupsOf keys them; the others are computed here.
   */
  intervals?: ReadonlyMap<BootstrapGroupKey, readonly Interval[]>;
};

/** A group the bootstrap resamples within (section 9): the whole split or one entity type. */
export type BootstrapGroupKey = "all" | EntityType;

type ScorePredictionsOptions = TrackPredictions &
  Omit<ReportOptions, "gold"> & {
    gold: readonly GoldRecord[];
    kb: KbIndex;
  };

export type ScoredPredictions<R extends ScoreReport = ScoreReport> = {
  report: R;
  /** One code per gold sample, for storage and later comparisons (outcome-codes.ts). */
  outcomes: SampleOutcomes;
};

export function scorePredictions(
  options: ScorePredictionsOptions & { track: "open" },
): ScoredPredictions<OpenScoreReport>;
export function scorePredictions(
  options: ScorePredictionsOptions & { track: "closed" },
): ScoredPredictions<ClosedScoreReport>;
export function scorePredictions(options: ScorePredictionsOptions): ScoredPredictions;
export function scorePredictions(options: ScorePredictionsOptions): ScoredPredictions {
  const outcomes = computeOutcomes(options);
  const report = buildScoreReport({ ...options, outcomes });
  return { report, outcomes };
}

/** The report of stored outcomes (e.g. to re-run the bootstrap or the comparisons later). */
export function buildScoreReport(options: ReportOptions & { outcomes: SampleOutcomes }): ScoreReport {
  const { outcomes, gold } = options;
  if (outcomes.codes.length !== gold.length) {
    throw new Error(`outcomes cover ${outcomes.codes.length} samples, the gold ${gold.length}`);
  }
  if (gold.length === 0) {
    throw new Error("cannot score a split without samples");
  }
  for (const baseline of options.baselines ?? []) {
    if (baseline.outcomes.codes.length !== gold.length) {
      throw new Error(`baseline ${baseline.name} covers ${baseline.outcomes.codes.length} samples, the gold ${gold.length}`);
    }
  }
  if (outcomes.track === "open") {
    return assembleReport("open", OPEN_METRIC_KEYS, options);
  }
  return assembleReport("closed", CLOSED_METRIC_KEYS, options);
}

type GroupScore<K extends MetricKey> = {
  n: number;
  metrics: Record<K, number | null>;
  ci95: Record<K, Interval | null>;
};

function recordOf<K extends string, V>(keys: readonly K[], valueAt: (index: number) => V): Record<K, V> {
  const record = {} as Record<K, V>;
  keys.forEach((key, index) => {
    record[key] = valueAt(index);
  });
  return record;
}

function codesAt(codes: Uint8Array, indices: readonly number[]): Uint8Array {
  return Uint8Array.from(indices, (index) => codes[index] ?? 0);
}

function indicesBy<G extends string>(gold: ReportOptions["gold"], groupOf: (sample: ReportOptions["gold"][number]) => G) {
  const groups = new Map<G, number[]>();
  gold.forEach((sample, index) => {
    const key = groupOf(sample);
    const indices = groups.get(key);
    if (indices === undefined) {
      groups.set(key, [index]);
    } else {
      indices.push(index);
    }
  });
  return groups;
}

/** The codes of each entity type's samples, in gold order; types without samples are absent. */
function typeGroupCodes(gold: ReportOptions["gold"], codes: Uint8Array): Map<EntityType, Uint8Array> {
  const groups = new Map<EntityType, Uint8Array>();
  for (const [type, indices] of indicesBy<EntityType>(gold, (sample) => sample.type)) {
    groups.set(type, codesAt(codes, indices));
  }
  return groups;
}

/**
 * The groups whose bootstrap intervals a report holds (section 9), each with
 * its codes: what a caller can compute elsewhere and pass as `intervals`.
 */
export function bootstrapGroupsOf(gold: ReportOptions["gold"], outcomes: SampleOutcomes): [BootstrapGroupKey, Uint8Array][] {
  return [["all", outcomes.codes], ...typeGroupCodes(gold, outcomes.codes)];
}

function assembleReport<const T extends Track, K extends MetricKey>(
  track: T,
  keys: readonly K[],
  options: ReportOptions & { outcomes: SampleOutcomes },
) {
  const { codes } = options.outcomes;
  const tables = metricTablesOf(track);
  const bootstrap = {
    seed: options.seed ?? DEFAULT_BOOTSTRAP_SEED,
    resamples: options.resamples ?? DEFAULT_BOOTSTRAP_RESAMPLES,
  };
  const metricsOf = (groupCodes: Uint8Array) => {
    const values = metricsFromCounts(countCodes(groupCodes), groupCodes.length, tables);
    return recordOf(keys, (m) => values[m] ?? Number.NaN);
  };
  // Section 9: intervals of a group resample within the group (its own stream, same seed).
  const intervalsOf = (group: BootstrapGroupKey, groupCodes: Uint8Array) => {
    const intervals = options.intervals?.get(group) ?? bootstrapIntervals(groupCodes, tables, bootstrap);
    return recordOf(keys, (m): Interval => intervals[m] ?? [Number.NaN, Number.NaN]);
  };

  const byTypeCodes = typeGroupCodes(options.gold, codes);
  const byType = recordOf(ENTITY_TYPES, (t): GroupScore<K> => {
    const type = ENTITY_TYPES[t] ?? "Other";
    const typeCodes = byTypeCodes.get(type);
    if (typeCodes === undefined) {
      // Section 8: a type without samples is shown, with n = 0 and no values.
      return { n: 0, metrics: recordOf(keys, () => null), ci95: recordOf(keys, () => null) };
    }
    return { n: typeCodes.length, metrics: metricsOf(typeCodes), ci95: intervalsOf(type, typeCodes) };
  });

  const byCollectionIndices = indicesBy(options.gold, (sample) => sample.collection);
  // Object.fromEntries defines own properties: a plain `record[name] = ...` would set the
  // prototype for a collection named "__proto__" and drop it from the report (section 8).
  const byCollection: Record<string, { n: number; metrics: Record<K, number> }> = Object.fromEntries(
    [...byCollectionIndices.keys()].sort().map((name) => {
      const indices = byCollectionIndices.get(name) ?? [];
      return [name, { n: indices.length, metrics: metricsOf(codesAt(codes, indices)) }];
    }),
  );

  return {
    scorer_version: SCORER_VERSION,
    split: options.split,
    track,
    n: codes.length,
    metrics: metricsOf(codes),
    ci95: intervalsOf("all", codes),
    by_type: byType,
    by_collection: byCollection,
    comparisons: compareWithBaselines(options.outcomes, options.baselines ?? []),
  };
}

/** The track's primary metric of a report: alias (open) or hit@1 (closed), section 6-7. */
export function primaryMetricOf(report: ScoreReport): number {
  return report.track === "open" ? report.metrics.alias : report.metrics["hit@1"];
}

/** The unified alias-aware top-1 metric of a report: alias (open) or alias_hit@1 (closed), section 7. */
export function unifiedMetricOf(report: ScoreReport): number {
  return report.track === "open" ? report.metrics.alias : report.metrics["alias_hit@1"];
}
