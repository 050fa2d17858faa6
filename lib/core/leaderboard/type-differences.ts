import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-schema";
import type { ComparisonMetric } from "@/lib/core/scoring/compare";
import type { Track } from "@/lib/core/scoring/tracks";
import type { Estimate, TypeGroupScore } from "./leaderboard-types";
import { reportMetricFor, type ViewMetric } from "./views";

/**
 * Per-type differences of two entries on the metric their comparison uses
 * (the primary metric within a track, the unified one across tracks), from
 * their reports' per-type numbers: aggregates only.
 */

type ComparedSide = { track: Track; byType: Partial<Record<EntityType, TypeGroupScore>> };

export type TypeDifference = {
  type: EntityType;
  n: number;
  a: Estimate | null;
  b: Estimate | null;
  /** a - b, null when either side has no value. */
  difference: number | null;
};

function sideEstimate(side: ComparedSide, metric: ViewMetric, type: EntityType): Estimate | null {
  const key = reportMetricFor(metric, side.track);
  const group = side.byType[type];
  if (key === null || group === undefined || group.n === 0) return null;
  const value = group.metrics[key];
  if (value === null || value === undefined) return null;
  return { value, ci95: group.ci95[key] ?? null };
}

export function typeDifferences(a: ComparedSide, b: ComparedSide, metric: ComparisonMetric): TypeDifference[] {
  // Every comparison metric is also a view metric ("alias", "hit@1", "unified").
  const viewMetric: ViewMetric = metric;
  return ENTITY_TYPES.map((type) => {
    const left = sideEstimate(a, viewMetric, type);
    const right = sideEstimate(b, viewMetric, type);
    return {
      type,
      n: a.byType[type]?.n ?? b.byType[type]?.n ?? 0,
      a: left,
      b: right,
      difference: left !== null && right !== null ? left.value - right.value : null,
    };
  });
}
