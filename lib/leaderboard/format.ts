import type { Estimate } from "./leaderboard-types";
import { isRateMetric, type ViewMetric } from "./views";

/**
 * How numbers read on pages and in LaTeX: rates as percentages with one
 * decimal ("38.9"), MRR as a decimal with three ("0.475"), an interval in
 * brackets after its value ("38.9 [37.5, 40.3]"). Files and the API keep
 * fractions at full precision.
 */

export function formatValue(value: number, metric: ViewMetric): string {
  if (!Number.isFinite(value)) {
    return "–";
  }
  return isRateMetric(metric) ? (value * 100).toFixed(1) : value.toFixed(3);
}

export function formatInterval(interval: readonly [number, number], metric: ViewMetric): string {
  return `[${formatValue(interval[0], metric)}, ${formatValue(interval[1], metric)}]`;
}

export function formatEstimate(estimate: Estimate | null | undefined, metric: ViewMetric): string {
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
 * Reads a parameter count as people write it: "8B", "110M", "6.5m", "1.2T",
 * "7e9" or "350000000". Returns null for anything else (including negatives).
 */
export function parseParameterCount(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?(?:e\d+)?)\s*([kmbt])?\s*$/i.exec(text);
  if (!match) {
    return null;
  }
  const base = Number(match[1]);
  const unit = (match[2] ?? "").toUpperCase();
  const factor = PARAMETER_UNITS.find((candidate) => candidate.suffix === unit)?.size ?? 1;
  const value = base * factor;
  return Number.isFinite(value) ? value : null;
}

/** A p-value for a table cell: 3 significant digits, exponent notation below 0.001. */
export function formatPValue(p: number): string {
  if (!Number.isFinite(p)) {
    return "–";
  }
  if (p === 0) {
    return "< 1e-300";
  }
  if (p < 0.001) {
    return p.toExponential(2);
  }
  return p.toPrecision(3);
}

/** A percentage-point difference with its sign: "+3.4", "−1.2". */
export function formatDifference(difference: number, metric: ViewMetric): string {
  if (!Number.isFinite(difference)) {
    return "–";
  }
  const magnitude = formatValue(Math.abs(difference), metric);
  if (Number(magnitude) === 0) {
    return magnitude;
  }
  return `${difference > 0 ? "+" : "−"}${magnitude}`;
}

/**
 * Dates on every page read as ISO 8601 in UTC: "2026-12-01" for a day,
 * "2026-12-01 14:05 UTC" where the time matters (submissions, reviews, the
 * audit log). Accepts a Date or an ISO string; "–" for none.
 */
export function formatDate(value: Date | string | null | undefined): string {
  const iso = toIsoString(value);
  return iso === null ? "–" : iso.slice(0, 10);
}

export function formatDateTime(value: Date | string | null | undefined): string {
  const iso = toIsoString(value);
  return iso === null ? "–" : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

function toIsoString(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined || value === "") {
    return null;
  }
  const date = typeof value === "string" ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
