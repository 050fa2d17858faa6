import { ENTITY_TYPES } from "@/lib/core/dataset/release-schema";
import type { MetricKey } from "@/lib/core/scoring/tracks";
import type { EntryScore } from "./entry-types";
import type { Estimate } from "./leaderboard-types";
import { formatCount, formatInterval, formatValue } from "@/lib/core/format/numbers";
import { roundTo } from "@/lib/core/format/round";
import { isRateMetric, METRIC_LABELS } from "./views";

/**
 * Chart series of an entry's scores, in the unit the axes show (percent for
 * rates, the raw value for MRR), with error bars as distances to the interval
 * ends.
 */

type ChartBar = { label: string; value: number | null; error?: [number, number]; note?: string };

function scaled(metric: MetricKey, value: number): number {
  return roundTo(isRateMetric(metric) ? value * 100 : value, isRateMetric(metric) ? 2 : 4);
}

function barOf(label: string, metric: MetricKey, estimate: Estimate | null, note?: string): ChartBar {
  if (estimate === null) {
    return { label, value: null, note };
  }
  const value = scaled(metric, estimate.value);
  const interval = estimate.ci95;
  const bar: ChartBar = { label, value, note: interval ? `${note ? `${note}, ` : ""}95% CI ${formatInterval(interval, metric)}` : note };
  if (interval) {
    // Distances made from the fractions, then scaled: no 13.899999999999999 from 38.9 - 25 in what the page carries (section 12).
    bar.error = [Math.max(0, scaled(metric, estimate.value - interval[0])), Math.max(0, scaled(metric, interval[1] - estimate.value))];
  }
  return bar;
}

/** One bar per entity type on `metric`; types without samples have no bar. */
export function typeBars(score: EntryScore, metric: MetricKey): ChartBar[] {
  return ENTITY_TYPES.map((type) => {
    const group = score.byType[type];
    const value = group?.metrics[metric];
    const n = group?.n ?? 0;
    const estimate = n === 0 || value === null || value === undefined ? null : { value, ci95: group?.ci95[metric] ?? null };
    return barOf(type, metric, estimate, `n = ${formatCount(n)}`);
  });
}

/** One bar per metric (the cumulative tiers of an open-world entry). */
export function metricBars(score: EntryScore, metrics: readonly MetricKey[]): ChartBar[] {
  return metrics.map((metric) => {
    const value = score.metrics[metric];
    return barOf(METRIC_LABELS[metric], metric, value === undefined ? null : { value, ci95: score.ci95[metric] ?? null });
  });
}

type HitAtKPoint = { k: string; value: number; error?: [number, number] };

/** Hit@1, 3, 5, 10 of a closed-world entry as a curve. */
export function hitAtKPoints(score: EntryScore): HitAtKPoint[] {
  const ks = [1, 3, 5, 10] as const;
  return ks.flatMap((k) => {
    const key: MetricKey = `hit@${k}`;
    const value = score.metrics[key];
    if (value === undefined) return [];
    const bar = barOf(String(k), key, { value, ci95: score.ci95[key] ?? null });
    return [{ k: String(k), value: bar.value ?? 0, ...(bar.error ? { error: bar.error } : {}) }];
  });
}

/** A short text version of a chart for screen readers and the caption. */
export function describeBars(bars: readonly ChartBar[], metric: MetricKey): string {
  return bars
    .filter((bar) => bar.value !== null)
    .map((bar) => `${bar.label} ${formatValue(isRateMetric(metric) ? (bar.value ?? 0) / 100 : (bar.value ?? 0), metric)}`)
    .join(", ");
}
