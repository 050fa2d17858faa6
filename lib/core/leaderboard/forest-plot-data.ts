import { linearAxis } from "@/lib/core/format/axis-ticks";
import { formatEstimate } from "@/lib/core/format/numbers";
import type { LeaderboardView, RowKind } from "./leaderboard-types";
import { METRIC_LABELS, TRACK_LABELS } from "./views";

/**
 * The forest plot above a leaderboard table: one line per entry of the view,
 * its point estimate and 95% interval on the view's rank metric, in percent
 * (every rank metric is a rate), best first like the table. Reported results
 * are points without intervals. Pure: the chart only draws what this returns.
 */

/** How many lines the plot draws at most; the rest stay in the table. */
export const FOREST_PLOT_LIMIT = 30;

/** Longer system names are cut on the axis; the full name is in the tooltip and the data table. */
const FOREST_NAME_LENGTH = 30;

export type ForestPoint = {
  key: string;
  /** 0 for the best line; the chart's y coordinate. */
  position: number;
  system: string;
  /** The system name as the axis shows it. */
  shortName: string;
  kind: RowKind;
  rank: number | null;
  /** Percent. */
  value: number;
  /** Distances from `value` to the interval's ends; null without an interval. */
  error: [number, number] | null;
  /** "38.9 [37.5, 40.3]", as the table writes it. */
  label: string;
};

export type ForestPlotData = {
  title: string;
  axisLabel: string;
  points: ForestPoint[];
  /** Entries of the view with a value of the rank metric (the plot shows the first FOREST_PLOT_LIMIT). */
  total: number;
  /** The x axis in percent, from the lowest to the highest interval end, widened to its first and last tick. */
  domain: [number, number];
  /** The x axis' ticks: a regular step of 1, 2 or 5 x 10^k, the first and last at the domain's ends. */
  ticks: number[];
  step: number;
};

/** At most this many gaps between the x axis' ticks (they stay apart on a 390 px phone). */
const MAX_TICK_GAPS = 5;

function percent(fraction: number): number {
  return Math.round(fraction * 10_000) / 100;
}

export function shortSystemName(system: string): string {
  return system.length <= FOREST_NAME_LENGTH ? system : `${system.slice(0, FOREST_NAME_LENGTH - 1).trimEnd()}…`;
}

function valueAxis(points: readonly ForestPoint[]) {
  if (points.length === 0) return linearAxis(0, 100, MAX_TICK_GAPS, [0, 100]);
  const lows = points.map((point) => point.value - (point.error?.[0] ?? 0));
  const highs = points.map((point) => point.value + (point.error?.[1] ?? 0));
  return linearAxis(Math.min(...lows), Math.max(...highs), MAX_TICK_GAPS, [0, 100]);
}

export function forestPlotData(view: Pick<LeaderboardView, "rows" | "rankMetric" | "track" | "type">): ForestPlotData {
  const metric = view.rankMetric;
  const plotted = view.rows.filter((row) => row.metrics[metric] != null);
  const points = plotted.slice(0, FOREST_PLOT_LIMIT).map((row, position): ForestPoint => {
    const estimate = row.metrics[metric]!;
    const value = percent(estimate.value);
    const interval = row.kind === "reported" ? null : estimate.ci95;
    return {
      key: row.key,
      position,
      system: row.system,
      shortName: shortSystemName(row.system),
      kind: row.kind,
      rank: row.rank,
      value,
      // Distances made from the fractions, then scaled: 38.9 - 25 in doubles is 13.899999999999999, a number with
      // more digits than section 12 lets a page carry.
      error: interval === null ? null : [Math.max(0, percent(estimate.value - interval[0])), Math.max(0, percent(interval[1] - estimate.value))],
      label: formatEstimate(row.kind === "reported" ? { value: estimate.value, ci95: null } : estimate, metric),
    };
  });
  const axis = valueAxis(points);
  const scope = view.type === null ? "" : ` on ${view.type} samples`;
  return {
    title: `${METRIC_LABELS[metric]} with 95% intervals${scope}, ${TRACK_LABELS[view.track]} view, best first`,
    axisLabel: `${METRIC_LABELS[metric]} (%)`,
    points,
    total: plotted.length,
    domain: axis.domain,
    ticks: axis.ticks,
    step: axis.step,
  };
}
