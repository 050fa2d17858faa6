import { isScoreStale } from "@/lib/core/scoring/score-staleness";
import { pValueBucket, readPair } from "@/lib/core/disclosure/disclose";
import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-schema";
import type {
  EntrySource,
  Estimate,
  LeaderboardRow,
  LeaderboardView,
  MatrixCell,
  PairwiseMatrix,
  ReleaseRef,
  ReportedSource,
  TypeEstimate,
} from "./leaderboard-types";
import { pickBestBaseline, significanceMark } from "../ranking/significance";
import { publicOrderValueOf, rankView, type ViewRanks } from "../ranking/view-ranks";
import type { ComparisonMetric } from "@/lib/core/scoring/compare";
import {
  isTrackInView,
  rankMetricOf,
  reportMetricFor,
  viewMetricsOf,
  type LeaderboardTrack,
  type ViewMetric,
} from "./views";

/**
 * Turns the public entries, their comparisons and the reported results of a
 * release into the rows of one leaderboard view. Pure: the loader reads the
 * database, this decides what is shown.
 */

export type BuildLeaderboardInput = {
  release: ReleaseRef;
  /** The release's current gold checksum of the test split; a score against another is stale (section 10). */
  goldSha256: string | null;
  /** The scorer version of this build; a score of another version is stale. */
  scorerVersion: string;
  track: LeaderboardTrack;
  type: EntityType | null;
  entries: readonly EntrySource[];
  reported: readonly ReportedSource[];
  /** Entity type of each test sample in gold order (type views test on that type's samples). */
  goldTypes: readonly EntityType[];
  /** The release's min_group_n: a smaller type has no type-view ranks (section 12). */
  minGroupN: number;
  /** The noise of a pair's key (section 12, lib/core/disclosure/perturb.ts noiseOf with the release's context). */
  noise: (key: string) => number;
};

/** An entry's estimate of a view metric, overall or on one entity type. */
export function entryEstimate(entry: EntrySource, metric: ViewMetric, type: EntityType | null): Estimate | null {
  const key = reportMetricFor(metric, entry.track);
  if (key === null) {
    return null;
  }
  if (type === null) {
    const value = entry.score.metrics[key];
    return value === undefined ? null : { value, ci95: entry.score.ci95[key] ?? null };
  }
  const group = entry.score.byType[type];
  const value = group?.metrics[key];
  if (group === undefined || group.n === 0 || value === null || value === undefined) {
    return null;
  }
  return { value, ci95: group.ci95[key] ?? null };
}

function entryTypeEstimates(entry: EntrySource, metric: ViewMetric): Partial<Record<EntityType, TypeEstimate>> {
  const out: Partial<Record<EntityType, TypeEstimate>> = {};
  for (const type of ENTITY_TYPES) {
    const group = entry.score.byType[type];
    if (group === undefined) continue;
    const estimate = entryEstimate(entry, metric, type);
    out[type] = { n: group.n, value: estimate?.value ?? null, ci95: estimate?.ci95 ?? null, isSuppressed: group.isSuppressed === true };
  }
  return out;
}

function reportedEstimate(result: ReportedSource, metric: ViewMetric, type: EntityType | null): Estimate | null {
  const key = reportMetricFor(metric, result.track);
  if (key === null) {
    return null;
  }
  const value = type === null ? result.metrics[key] : result.byType?.[type]?.metrics[key];
  return value === undefined ? null : { value, ci95: null };
}

function reportedTypeEstimates(result: ReportedSource, metric: ViewMetric): Partial<Record<EntityType, TypeEstimate>> {
  const out: Partial<Record<EntityType, TypeEstimate>> = {};
  for (const type of ENTITY_TYPES) {
    const group = result.byType?.[type];
    const estimate = reportedEstimate(result, metric, type);
    if (group === undefined || estimate === null) continue;
    out[type] = { n: group.n ?? null, value: estimate.value, ci95: null };
  }
  return out;
}

function metricsOf(columns: readonly ViewMetric[], estimateOf: (metric: ViewMetric) => Estimate | null) {
  const metrics: LeaderboardRow["metrics"] = {};
  for (const metric of columns) {
    metrics[metric] = estimateOf(metric);
  }
  return metrics;
}

function entryRow(entry: EntrySource, input: BuildLeaderboardInput, columns: readonly ViewMetric[]): LeaderboardRow {
  const { type } = input;
  const rankMetric = rankMetricOf(input.track);
  return {
    key: entry.id,
    kind: entry.isBaseline ? "baseline" : "submission",
    entryId: entry.id,
    system: entry.system,
    team: entry.team,
    track: entry.track,
    n: type === null ? entry.score.n : (entry.score.byType[type]?.n ?? 0),
    parameterCount: entry.parameterCount,
    isOpenWeights: entry.isOpenWeights,
    approach: entry.approach,
    usesSourceData: entry.usesSourceData,
    knowledgeCutoff: entry.knowledgeCutoff,
    tier: entry.tier,
    date: entry.date,
    isStale: isScoreStale(entry.score, input.goldSha256, input.scorerVersion),
    source: null,
    rank: null,
    rankHi: null,
    rankReason: null,
    metrics: metricsOf(columns, (metric) => entryEstimate(entry, metric, type)),
    byType: type === null ? entryTypeEstimates(entry, rankMetric) : null,
    significance: null,
  };
}

function reportedRow(result: ReportedSource, input: BuildLeaderboardInput, columns: readonly ViewMetric[]): LeaderboardRow {
  const { type } = input;
  return {
    key: `reported:${result.id}`,
    kind: "reported",
    entryId: null,
    system: result.name,
    team: null,
    track: result.track,
    n: type === null ? result.n : (result.byType?.[type]?.n ?? null),
    parameterCount: null,
    isOpenWeights: null,
    approach: null,
    usesSourceData: null,
    knowledgeCutoff: null,
    tier: "reported",
    date: result.date,
    isStale: false,
    source: result.source,
    rank: null,
    rankHi: null,
    rankReason: null,
    metrics: metricsOf(columns, (metric) => reportedEstimate(result, metric, type)),
    byType: type === null ? reportedTypeEstimates(result, rankMetricOf(input.track)) : null,
    significance: null,
  };
}

/**
 * Rows by point estimate, highest first (section 13): an entry's is its
 * perturbed count over n (section 12), a reported row's its reported value;
 * ties by entry id.
 */
function compareRows(orderOf: (row: LeaderboardRow) => number | null) {
  return (a: LeaderboardRow, b: LeaderboardRow): number => {
    const x = orderOf(a) ?? Number.NEGATIVE_INFINITY;
    const y = orderOf(b) ?? Number.NEGATIVE_INFINITY;
    if (x !== y) return y - x;
    return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  };
}

export function buildLeaderboard(input: BuildLeaderboardInput): LeaderboardView {
  const columns = viewMetricsOf(input.track);
  const rankMetric = rankMetricOf(input.track);
  const entries = input.entries.filter((entry) => isTrackInView(input.track, entry.track));
  const rows = entries.map((entry) => entryRow(entry, input, columns));

  // Section 13: ranks and marks come from one set of paired tests among the view's entries.
  const comparisonMetric: ComparisonMetric = rankMetric === "alias" || rankMetric === "hit@1" ? rankMetric : "unified";
  const ranks = rankView({
    entries,
    metric: comparisonMetric,
    type: input.type,
    goldTypes: input.goldTypes,
    goldSha256: input.goldSha256,
    minGroupN: input.minGroupN,
    noise: input.noise,
  });
  const entryOrder = new Map(entries.map((entry) => [entry.id, publicOrderValueOf(entry, comparisonMetric, input.type)]));
  const orderOf = (row: LeaderboardRow): number | null => (row.entryId !== null ? (entryOrder.get(row.entryId) ?? null) : (row.metrics[rankMetric]?.value ?? null));
  const systemOf = new Map(entries.map((entry) => [entry.id, entry.system]));
  if (ranks !== null) {
    for (const row of rows) {
      const index = ranks.indexOf.get(row.key);
      if (index === undefined) continue;
      row.rank = ranks.paired.ranks[index] ?? null;
      row.rankHi = ranks.paired.rankHi[index] ?? null;
      row.rankReason = {
        better: ranks.paired.betterThan(index).map((better) => {
          const entryId = ranks.paired.ids[better.index] ?? "";
          return { entryId, system: systemOf.get(entryId) ?? entryId, pBucket: pValueBucket(better.pHolm) };
        }),
        beats: ranks.paired.worseThan(index).length,
        ranked: ranks.paired.ids.length,
      };
    }
  }

  const bestBaseline =
    ranks === null
      ? null
      : pickBestBaseline(
          entries
            .filter((entry) => entry.isBaseline && ranks.indexOf.has(entry.id))
            .map((entry) => ({ id: entry.id, name: entry.system, value: entryEstimate(entry, rankMetric, input.type)?.value ?? null, order: entryOrder.get(entry.id) ?? null })),
          rankMetric,
        );
  const baselineIndex = bestBaseline === null ? undefined : ranks?.indexOf.get(bestBaseline.id);
  if (ranks !== null && bestBaseline !== null && baselineIndex !== undefined) {
    for (const row of rows) {
      const index = ranks.indexOf.get(row.key);
      if (index === undefined || index === baselineIndex) continue;
      row.significance = significanceMark(ranks.paired, index, baselineIndex, bestBaseline, row.metrics[rankMetric]?.value ?? null);
    }
  }

  const reported = input.reported
    .filter((result) => isTrackInView(input.track, result.track))
    .map((result) => reportedRow(result, input, columns))
    // A paper gives per-type numbers for some systems and metrics only; rows with none are left out.
    .filter((row) => columns.some((metric) => row.metrics[metric] != null));

  return {
    release: input.release,
    split: "test",
    track: input.track,
    type: input.type,
    rankMetric,
    columns,
    bestBaseline,
    rows: [...rows, ...reported].sort(compareRows(orderOf)),
    minGroupN: input.minGroupN,
    matrix: ranks === null ? null : pairwiseMatrix(ranks, rows, rankMetric, orderOf),
    readPair: pairReader(ranks, rows, rankMetric),
  };
}

function pairReader(ranks: ViewRanks | null, rows: readonly LeaderboardRow[], rankMetric: ViewMetric): LeaderboardView["readPair"] {
  const shown = new Map(rows.map((row) => [row.key, row.metrics[rankMetric]?.value ?? null]));
  return (entryId, otherId) => {
    const i = ranks?.indexOf.get(entryId);
    const j = ranks?.indexOf.get(otherId);
    if (ranks === null || i === undefined || j === undefined || i === j) return null;
    return readPair(ranks.paired.verdict(i, j), shown.get(entryId) ?? null, shown.get(otherId) ?? null);
  };
}

/** How many entries the pairwise matrix shows (the top of the view by point estimate). */
const MATRIX_SIZE = 20;

function pairwiseMatrix(ranks: ViewRanks, rows: readonly LeaderboardRow[], rankMetric: ViewMetric, orderOf: (row: LeaderboardRow) => number | null): PairwiseMatrix {
  const top = rows
    .filter((row) => ranks.indexOf.has(row.key))
    .sort(compareRows(orderOf))
    .slice(0, MATRIX_SIZE);
  const { paired } = ranks;
  const cells = top.map((rowEntry) =>
    top.map((columnEntry): MatrixCell | null => {
      const i = ranks.indexOf.get(rowEntry.key)!;
      const j = ranks.indexOf.get(columnEntry.key)!;
      if (i === j) return null;
      const reading = readPair(paired.verdict(i, j), rowEntry.metrics[rankMetric]?.value ?? null, columnEntry.metrics[rankMetric]?.value ?? null);
      const winner = reading.verdict === "better" ? "row" : reading.verdict === "worse" ? "column" : "none";
      return { ...reading, winner };
    }),
  );
  return {
    entries: top.map((row) => ({ id: row.key, system: row.system, kind: row.kind, rank: row.rank, rankHi: row.rankHi, value: row.metrics[rankMetric]?.value ?? null })),
    cells,
  };
}
