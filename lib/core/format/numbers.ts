import { isRateMetric, type ViewMetric } from "@/lib/core/leaderboard/views";

/**
 * How numbers read, on pages, in exports and in the CLI's table: rates as
 * percentages ("38.9"), MRR as a decimal ("0.475"), an interval in brackets
 * after its value ("38.9 [37.5, 40.3]"), counts with thousands separators,
 * p-values to 3 significant digits ("< 0.001" below), p buckets with "≥". Files and the API keep fractions at full
 * precision. Pure: pages, client components and the CLI bundle import it.
 */

const NONE = "–";

/** A count: 4633 -> "4,633". */
export function formatCount(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NONE;
  return value.toLocaleString("en");
}

/** A rate (a fraction in [0, 1]) as a percentage without the sign: 0.3891 -> "38.9". */
export function formatPercent(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NONE;
  return (value * 100).toFixed(digits);
}

/** An interval of rates as percentages: [0.375, 0.403] -> "[37.5, 40.3]"; empty when there is none. */
export function formatPercentInterval(interval: readonly [number, number] | null | undefined, digits = 1): string {
  if (!interval) return "";
  return `[${formatPercent(interval[0], digits)}, ${formatPercent(interval[1], digits)}]`;
}

/** A plain decimal (MRR, chi-squared): 0.47512 -> "0.475". */
export function formatDecimal(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NONE;
  return value.toFixed(digits);
}

/** An interval of decimals: [0.25, 1] -> "[0.250, 1.000]"; empty when there is none. */
export function formatDecimalInterval(interval: readonly [number, number] | null | undefined, digits = 3): string {
  if (!interval) return "";
  return `[${formatDecimal(interval[0], digits)}, ${formatDecimal(interval[1], digits)}]`;
}

/** A metric's value as pages show it; `isWholePoints`: a rate rounded to whole points (protocol §12, a small group's) reads as whole points, "71" not "71.0". */
export function formatValue(value: number, metric: ViewMetric, isWholePoints = false): string {
  return isRateMetric(metric) ? formatPercent(value, isWholePoints ? 0 : 1) : formatDecimal(value);
}

/**
 * Whether a public group rate is rounded to whole points (protocol §12: groups of fewer than the release's
 * `coarseBelowN` ranking samples, publicGroupPolicy in lib/core/disclosure/disclose.ts). Reported results
 * (papers' numbers, no n or typed in) never are.
 */
export function isWholePointGroup(n: number | null | undefined, coarseBelowN: number | null | undefined): boolean {
  return n !== null && n !== undefined && coarseBelowN !== null && coarseBelowN !== undefined && n < coarseBelowN;
}

export function formatInterval(interval: readonly [number, number], metric: ViewMetric): string {
  return `[${formatValue(interval[0], metric)}, ${formatValue(interval[1], metric)}]`;
}

/** A value and its interval (a leaderboard Estimate, read structurally so this file needs no leaderboard type). */
export function formatEstimate(estimate: { value: number; ci95: readonly [number, number] | null } | null | undefined, metric: ViewMetric): string {
  if (!estimate) {
    return "–";
  }
  const value = formatValue(estimate.value, metric);
  return estimate.ci95 ? `${value} ${formatInterval(estimate.ci95, metric)}` : value;
}

const PARAMETER_UNITS = [
  { suffix: "T", size: 1e12 },
  { suffix: "B", size: 1e9 },
  { suffix: "M", size: 1e6 },
  { suffix: "K", size: 1e3 },
] as const;

/** 8000000000 -> "8B", 110000000 -> "110M", 6500000 -> "6.5M". */
export function formatParameterCount(count: number | null): string {
  if (count === null || !Number.isFinite(count)) {
    return "–";
  }
  for (const unit of PARAMETER_UNITS) {
    if (count >= unit.size) {
      const scaled = count / unit.size;
      const digits = scaled >= 100 ? 0 : scaled >= 10 ? 1 : 2;
      return `${Number(scaled.toFixed(digits))}${unit.suffix}`;
    }
  }
  return String(count);
}

/**
 * Reads a parameter count as people write it, the one reader of the fact sheet
 * form, the fact sheet JSON and the leaderboard's size filter: "8B", "1.3B",
 * "110M", "6.5m", "1.2T", "7e9", "350000000" or "8,000,000,000". A whole number
 * of parameters (1.3B is 1300000000, not 1300000000.0000002); null for anything
 * else (including negatives).
 */
export function parseParameterCount(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?(?:e\d+)?)\s*([kmbt])?\s*$/i.exec(text.replaceAll(/(?<=\d)[,_](?=\d{3})/g, ""));
  if (!match) {
    return null;
  }
  const base = Number(match[1]);
  const unit = (match[2] ?? "").toUpperCase();
  const factor = PARAMETER_UNITS.find((candidate) => candidate.suffix === unit)?.size ?? 1;
  const value = Math.round(base * factor);
  return Number.isFinite(value) ? value : null;
}

/**
 * A stored count as a person edits it: the page's "1.3B" when that reads back to the very
 * same count, the digits otherwise (1234567891 would read back as 1.23B).
 */
export function formatParameterCountForEditing(count: number): string {
  const short = formatParameterCount(count);
  return parseParameterCount(short) === count ? short : String(count);
}

/** A percentage-point difference with its sign: "+3.4", "−1.2". */
export function formatDifference(difference: number, metric: ViewMetric, isWholePoints = false): string {
  if (!Number.isFinite(difference)) {
    return "–";
  }
  const magnitude = formatValue(Math.abs(difference), metric, isWholePoints);
  if (Number(magnitude) === 0) {
    return magnitude;
  }
  return `${difference > 0 ? "+" : "−"}${magnitude}`;
}

/** A rank interval (section 13): "3" when both ends agree, "2–5" otherwise. */
export function formatRankInterval(low: number, high: number): string {
  return low === high ? String(low) : `${low}–${high}`;
}

/**
 * Why a group's numbers are not shown (protocol section 12), short enough for a table cell:
 * "n = 9 < 30" when the group itself is under the release's min_group_n; "hidden with smaller
 * groups" when it is large enough but hidden so the overall numbers cannot give the small ones back.
 */
export function formatSuppressedGroup(n: number | null, minGroupN: number): string {
  if (n === null) return NONE;
  if (n < minGroupN) return `n = ${formatCount(n)} < ${formatCount(minGroupN)}`;
  return "hidden with smaller groups";
}

/**
 * A chart axis' tick at a regular step: as many decimals as the step needs
 * (step 0.5: "37.5"; step 20: "40"), counts with thousands separators.
 */
export function formatTick(value: number, step: number): string {
  const digits = step >= 1 ? 0 : Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  if (digits === 0) return formatCount(Math.round(value));
  return value.toFixed(digits);
}

/** A report metric (section 11 key) with its unit: a rate as a percentage with one decimal, MRR as a fraction. The command-line client writes metrics this way. */
export function formatMetric(key: string, value: number | null | undefined): string {
  if (value === null || value === undefined) return "-";
  return key === "mrr" ? formatDecimal(value) : `${formatPercent(value)}%`;
}

/** A report metric's 95% interval written as its value is. */
export function formatMetricInterval(key: string, interval: readonly [number, number] | null | undefined): string {
  if (!interval) return "";
  return key === "mrr" ? `[${formatDecimal(interval[0])}, ${formatDecimal(interval[1])}]` : formatPercentInterval(interval);
}
