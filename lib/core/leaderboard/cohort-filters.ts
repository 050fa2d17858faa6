import { z } from "zod";
import { APPROACHES, type Approach } from "@/lib/core/fact-sheet/schema";
import { cutoffSide, type CutoffSide } from "@/lib/core/fact-sheet/knowledge-cutoff";
import { PROVENANCE_TIERS, type ProvenanceTier } from "@/lib/core/fact-sheet/tiers";
import type { EntrySource, ReportedSource } from "./leaderboard-types";

/**
 * Fact-sheet and provenance filters: which systems a view compares.
 * Unlike the table's display filters (name search, entry kind, parameter
 * range), these choose the view's entries BEFORE it is built, so its ranks,
 * significance marks and pairwise matrix are recomputed among the entries it
 * shows, exactly as a type view recomputes them on its samples and the
 * primary scope among the entries it keeps (protocol section 13):
 * "open-weights fine-tuned systems without source data" is a comparison of
 * its own. Rules:
 * - baselines always stay, as the reference every view is read against, except under the tier
 *   filter "reported": it asks for the papers' numbers only, and a baseline's tier is "scored";
 * - a participant's entry stays when every filter set matches its fact sheet;
 *   an answer "not stated" matches no filter;
 * - a reported result has no fact sheet: any fact-sheet filter drops it, and
 *   the tier filter keeps it only for tier "reported";
 * - the tier filter is exact (documented does not include reproduced).
 */

const YES_NO = ["yes", "no"] as const;
export const CUTOFF_SIDES = ["before", "after"] as const;

const COHORT_KEYS = ["approach", "weights", "source", "cutoff", "tier"] as const;
type CohortKey = (typeof COHORT_KEYS)[number];

export type CohortFilters = {
  approach?: Approach;
  weights?: (typeof YES_NO)[number];
  source?: (typeof YES_NO)[number];
  cutoff?: CutoffSide;
  tier?: ProvenanceTier;
};

const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { message: `must be one of ${values.join(", ")}` });

/** Strict, for the API and the downloads: a bad value is a 422 naming the parameter. */
export const cohortQueryShape = {
  approach: oneOf(APPROACHES).optional().describe("the fact sheet's approach"),
  weights: oneOf(YES_NO).optional().describe("yes: open weights; no: closed weights"),
  source: oneOf(YES_NO).optional().describe("yes/no: used data from the source oral-history collections"),
  cutoff: oneOf(CUTOFF_SIDES).optional().describe("the base model's knowledge cutoff before or after the release date"),
  tier: oneOf(PROVENANCE_TIERS).optional().describe("provenance tier: reported, scored, documented or reproduced"),
};

/** Lenient, for pages: a bad value is ignored (the page shows the unfiltered view). */
export const pageCohortSchema = z.object({
  approach: z.enum(APPROACHES).optional().catch(undefined),
  weights: z.enum(YES_NO).optional().catch(undefined),
  source: z.enum(YES_NO).optional().catch(undefined),
  cutoff: z.enum(CUTOFF_SIDES).optional().catch(undefined),
  tier: z.enum(PROVENANCE_TIERS).optional().catch(undefined),
});

/** Only the cohort keys of a parsed query, undefined ones left out (the cache key and the links depend on it). */
export function cohortOf(query: Partial<Record<CohortKey, string | undefined>>): CohortFilters {
  const parsed = pageCohortSchema.parse(Object.fromEntries(COHORT_KEYS.map((key) => [key, query[key]])));
  const cohort: CohortFilters = {};
  for (const key of COHORT_KEYS) {
    if (parsed[key] !== undefined) Object.assign(cohort, { [key]: parsed[key] });
  }
  return cohort;
}

export function hasCohort(cohort: CohortFilters): boolean {
  return COHORT_KEYS.some((key) => cohort[key] !== undefined);
}

/** "approach=hybrid&weights=yes": the set filters in a fixed order, for cache keys and links. */
export function cohortKeyOf(cohort: CohortFilters): string {
  return cohortPairs(cohort)
    .map(([key, value]) => `${key}=${value}`)
    .join("&");
}

export function cohortPairs(cohort: CohortFilters): [CohortKey, string][] {
  return COHORT_KEYS.flatMap((key): [CohortKey, string][] => (cohort[key] === undefined ? [] : [[key, cohort[key]]]));
}

const hasFactSheetFilter = (cohort: CohortFilters) =>
  cohort.approach !== undefined || cohort.weights !== undefined || cohort.source !== undefined || cohort.cutoff !== undefined;

function matchesFlag(value: boolean | null, wanted: "yes" | "no" | undefined): boolean {
  return wanted === undefined || (value !== null && value === (wanted === "yes"));
}

type CohortEntry = Pick<EntrySource, "isBaseline" | "approach" | "isOpenWeights" | "usesSourceData" | "knowledgeCutoff" | "tier">;

export function isEntryInCohort(entry: CohortEntry, cohort: CohortFilters, releaseDate: string): boolean {
  if (entry.isBaseline) return cohort.tier !== "reported";
  if (cohort.tier !== undefined && entry.tier !== cohort.tier) return false;
  if (cohort.approach !== undefined && entry.approach !== cohort.approach) return false;
  if (!matchesFlag(entry.isOpenWeights, cohort.weights)) return false;
  if (!matchesFlag(entry.usesSourceData, cohort.source)) return false;
  if (cohort.cutoff !== undefined && (entry.knowledgeCutoff === null || cutoffSide(entry.knowledgeCutoff, releaseDate) !== cohort.cutoff)) return false;
  return true;
}

function isReportedInCohort(cohort: CohortFilters): boolean {
  if (hasFactSheetFilter(cohort)) return false;
  return cohort.tier === undefined || cohort.tier === "reported";
}

/** The entries and reported results a view with these filters is built from. */
export function selectCohort<E extends CohortEntry>(
  data: { entries: readonly E[]; reported: readonly ReportedSource[]; releaseDate: string },
  cohort: CohortFilters,
): { entries: E[]; reported: ReportedSource[] } {
  return {
    entries: data.entries.filter((entry) => isEntryInCohort(entry, cohort, data.releaseDate)),
    reported: isReportedInCohort(cohort) ? [...data.reported] : [],
  };
}

/** The cohort of a page's lenient filters ("any" is no filter). */
export function cohortOfPageFilters(filters: { weights: string; approach: string; source: string; cutoff: string; tier: string }): CohortFilters {
  const set = (value: string) => (value === "any" ? undefined : value);
  return cohortOf({ weights: set(filters.weights), approach: set(filters.approach), source: set(filters.source), cutoff: set(filters.cutoff), tier: set(filters.tier) });
}

const COHORT_WORDS: Record<CohortKey, (value: string) => string> = {
  approach: (value) => `approach ${value}`,
  weights: (value) => (value === "yes" ? "open weights" : "closed weights"),
  source: (value) => (value === "yes" ? "used source-collection data" : "no source-collection data"),
  cutoff: (value) => `knowledge cutoff ${value} the release date`,
  tier: (value) => `tier ${value}`,
};

/** "open weights, approach fine-tuned-llm": the set filters in words. */
export function describeCohort(cohort: CohortFilters): string {
  return cohortPairs(cohort)
    .map(([key, value]) => COHORT_WORDS[key](value))
    .join(", ");
}
