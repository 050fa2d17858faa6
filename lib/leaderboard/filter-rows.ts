import { z } from "zod";
import type { LeaderboardRow } from "./leaderboard-types";

/**
 * The leaderboard's filters, applied in the browser to the rows the server
 * sent. The schema reads them from the page's query string too, leniently:
 * a bad value falls back to its default rather than failing the page.
 */

export const ENTRY_KIND_FILTERS = ["all", "submissions", "baselines"] as const;
export const OPEN_WEIGHTS_FILTERS = ["any", "yes", "no"] as const;

export const leaderboardFiltersSchema = z.object({
  entries: z.enum(ENTRY_KIND_FILTERS).catch("all"),
  weights: z.enum(OPEN_WEIGHTS_FILTERS).catch("any"),
  /** Parameter range, as typed ("110M", "8B"); parsed with parseParameterCount. */
  minParams: z.string().max(20).catch(""),
  maxParams: z.string().max(20).catch(""),
  q: z.string().max(100).catch(""),
  reported: z.enum(["show", "hide"]).catch("show"),
});

export type LeaderboardFilters = z.infer<typeof leaderboardFiltersSchema>;

export const DEFAULT_FILTERS: LeaderboardFilters = {
  entries: "all",
  weights: "any",
  minParams: "",
  maxParams: "",
  q: "",
  reported: "show",
};

export type FilterableRow = Pick<LeaderboardRow, "kind" | "system" | "team" | "parameterCount" | "isOpenWeights">;

export type ParameterRange = { min: number | null; max: number | null };

/**
 * Keeps the rows that pass every filter:
 * - entries: "submissions" keeps participants' entries, "baselines" keeps
 *   baselines; reported results follow the `reported` switch alone;
 * - weights: "yes"/"no" keep rows whose open-weights flag is known and equal;
 * - parameter range: bounds are inclusive, and a row whose parameter count is
 *   unknown is dropped as soon as either bound is set;
 * - q: case-insensitive substring of the system or team name.
 */
export function filterRows<T extends FilterableRow>(
  rows: readonly T[],
  filters: LeaderboardFilters,
  range: ParameterRange,
): T[] {
  const needle = filters.q.trim().toLocaleLowerCase("en");
  return rows.filter((row) => {
    if (row.kind === "reported") {
      if (filters.reported === "hide") return false;
    } else if (filters.entries === "submissions" && row.kind !== "submission") {
      return false;
    } else if (filters.entries === "baselines" && row.kind !== "baseline") {
      return false;
    }
    if (filters.weights !== "any" && row.isOpenWeights !== (filters.weights === "yes")) {
      return false;
    }
    if (range.min !== null || range.max !== null) {
      if (row.parameterCount === null) return false;
      if (range.min !== null && row.parameterCount < range.min) return false;
      if (range.max !== null && row.parameterCount > range.max) return false;
    }
    if (needle.length > 0) {
      const haystack = `${row.system}\n${row.team ?? ""}`.toLocaleLowerCase("en");
      if (!haystack.includes(needle)) return false;
    }
    return true;
  });
}

/** The filters as query-string pairs, defaults left out (for shareable URLs). */
export function filtersToSearchParams(filters: LeaderboardFilters): [string, string][] {
  const pairs: [string, string][] = [];
  for (const key of Object.keys(DEFAULT_FILTERS) as (keyof LeaderboardFilters)[]) {
    if (filters[key] !== DEFAULT_FILTERS[key]) {
      pairs.push([key, filters[key]]);
    }
  }
  return pairs;
}
