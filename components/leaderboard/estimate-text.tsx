import { formatInterval, formatValue } from "@/lib/core/format/numbers";
import type { Estimate } from "@/lib/core/leaderboard/leaderboard-types";
import type { ViewMetric } from "@/lib/core/leaderboard/views";

/**
 * "38.9 [37.5, 40.3]": the value, then its 95% interval in smaller text (no
 * interval for reported results). Stacked, the interval sits under the value,
 * so a table of many metrics stays narrow.
 */
export function EstimateText({
  estimate,
  metric,
  isStacked = false,
  isWholePoints = false,
}: {
  estimate: Estimate | null | undefined;
  metric: ViewMetric;
  isStacked?: boolean;
  /** A small group's rate, rounded to whole points (section 12): shown as "71", not "71.0". */
  isWholePoints?: boolean;
}) {
  if (!estimate) {
    return <span className="text-muted">–</span>;
  }
  return (
    <span className="whitespace-nowrap tabular-nums">
      {formatValue(estimate.value, metric, isWholePoints)}
      {estimate.ci95 && <span className={`text-xs text-muted ${isStacked ? "block" : "ml-1"}`}>{formatInterval(estimate.ci95, metric)}</span>}
    </span>
  );
}

export function Badge({ children, tone, title }: { children: string; tone: "baseline" | "reported" | "stale" | "track"; title?: string }) {
  const tones = {
    baseline: "border-amber-700 bg-amber-50 text-amber-900",
    reported: "border-slate-500 bg-slate-100 text-slate-800",
    stale: "border-red-700 bg-red-50 text-red-800",
    track: "border-blue-700 bg-blue-50 text-blue-900",
  } as const;
  return (
    <span title={title} className={`ml-1 inline-block rounded border px-1 text-xs font-medium whitespace-nowrap ${tones[tone]}`}>
      {children}
    </span>
  );
}
