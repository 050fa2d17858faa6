import { METRIC_LABELS, type ViewMetric } from "@/lib/core/leaderboard/views";

function isViewMetric(key: string): key is ViewMetric {
  return Object.hasOwn(METRIC_LABELS, key);
}

/** A metric's label, the same on every page, export and chart (the labels live in lib/core/leaderboard/views.ts). */
export function formatMetricName(key: string): string {
  return isViewMetric(key) ? METRIC_LABELS[key] : key;
}
