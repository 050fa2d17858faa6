import { z } from "zod";
import { APPROACHES } from "@/lib/core/fact-sheet/schema";
import { PROVENANCE_TIERS } from "@/lib/core/fact-sheet/tiers";
import { CUTOFF_SIDES } from "./cohort-filters";
import type { LeaderboardRow } from "./leaderboard-types";

/**
 * The leaderboard's filters, read from the page's query string leniently: a
 * bad value falls back to its default rather than failing the page. Two kinds:
 * - cohort filters (weights, approach, source, cutoff, tier): the view is
 *   built from the matching entries, so ranks are recomputed among them
 *   (lib/core/leaderboard/cohort-filters.ts); `filterRows` does not apply them;
 * - display filters (entries, parameter range, q, reported): `filterRows`
 *   narrows the rows of the built view, ranks unchanged.
 */

const ENTRY_KIND_FILTERS = ["all", "submissions", "baselines"] as const;
const OPEN_WEIGHTS_FILTERS = ["any", "yes", "no"] as const;
const ANY = "any" as const;

export const leaderboardFiltersSchema = z.object({
  entries: z.enum(ENTRY_KIND_FILTERS).catch("all"),
  weights: z.enum(OPEN_WEIGHTS_FILTERS).catch("any"),
  approach: z.enum([ANY, ...APPROACHES]).catch(ANY),
  source: z.enum([ANY, "yes", "no"]).catch(ANY),
  cutoff: z.enum([ANY, ...CUTOFF_SIDES]).catch(ANY),
  tier: z.enum([ANY, ...PROVENANCE_TIERS]).catch(ANY),
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
  approach: "any",
  source: "any",
  cutoff: "any",
  tier: "any",
  minParams: "",
  maxParams: "",
  q: "",
  reported: "show",
};

export type FilterableRow = Pick<LeaderboardRow, "kind" | "system" | "team" | "parameterCount">;

export type ParameterRange = { min: number | null; max: number | null };

/**
 * Keeps the rows that pass every display filter (cohort filters were applied before the view was built):
 * - entries: "submissions" keeps participants' entries, "baselines" keeps
 *   baselines; reported results follow the `reported` switch alone;
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
