import { METRIC_LABELS, type ViewMetric } from "@/lib/leaderboard/views";

/** Display helpers for scores: rates are fractions in [0, 1]; pages show percentages. p-values: lib/leaderboard/format.ts. */
export function formatPercent(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "–";
  return (value * 100).toFixed(digits);
}

export function formatInterval(interval: readonly [number, number] | null | undefined, digits = 1): string {
  if (!interval) return "";
  return `[${formatPercent(interval[0], digits)}, ${formatPercent(interval[1], digits)}]`;
}

/** The metric's label, the same everywhere (lib/leaderboard/views.ts). */
export function formatMetricName(key: string): string {
  return key in METRIC_LABELS ? METRIC_LABELS[key as ViewMetric] : key;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
