import { describe, expect, it } from "vitest";
import { ZERO_NOISE, entry, GOLD, GOLD_TYPES, RELEASE, reported, VERSION } from "@/testing/leaderboard/test-support";
import { buildLeaderboard } from "./build-leaderboard";
import { cohortKeyOf, cohortOf, cohortOfPageFilters, describeCohort, isEntryInCohort, selectCohort } from "./cohort-filters";
import { DEFAULT_FILTERS } from "./filter-rows";
import { publicPageAddress } from "./page-queries";
import { leaderboardQuerySchema } from "./query-schemas";

const RELEASE_DATE = "2026-12-01";
const metrics = (alias: number) => ({ exact: alias - 0.05, alias, contain: alias + 0.02, jaccard: alias + 0.04 });
const ci = (alias: number) => ({ alias: [alias - 0.05, alias + 0.05] as [number, number] });

// Right on the first 100, 70, 50 and 30 of 200 samples (nested): every pair differs one way only (see build-leaderboard.test.ts).
const tuned = entry({ id: "tuned", track: "open", metrics: metrics(0.5), ci95: ci(0.5), facts: { approach: "fine-tuned-llm", isOpenWeights: true, usesSourceData: false, knowledgeCutoff: "2023-12", tier: "reproduced" } });
const closedApi = entry({ id: "api", track: "open", metrics: metrics(0.35), ci95: ci(0.35), facts: { approach: "prompted-llm", isOpenWeights: false, usesSourceData: true, knowledgeCutoff: "2027-01", tier: "documented" } });
const smallTuned = entry({ id: "small", track: "open", metrics: metrics(0.25), ci95: ci(0.25), facts: { approach: "fine-tuned-llm", isOpenWeights: true, usesSourceData: null, knowledgeCutoff: null, tier: "scored" } });
const baseline = entry({ id: "base", track: "open", isBaseline: true, metrics: metrics(0.15), ci95: ci(0.15) });
const paper = reported({ id: "paper", track: "open", metrics: metrics(0.4) });
const data = { entries: [tuned, closedApi, smallTuned, baseline], reported: [paper], releaseDate: RELEASE_DATE };

function ranksOf(cohort: Parameters<typeof selectCohort>[1]): Record<string, number | null> {
  const chosen = selectCohort(data, cohort);
  const view = buildLeaderboard({ release: RELEASE, goldSha256: GOLD, scorerVersion: VERSION, track: "open", type: null, goldTypes: GOLD_TYPES, minGroupN: 30, noise: ZERO_NOISE, ...chosen });
  return Object.fromEntries(view.rows.map((row) => [row.key, row.rank]));
}

describe("cohort filters", () => {
  it("keeps entries whose fact sheet matches every filter; not stated matches none; baselines always stay", () => {
    const ids = (cohort: Parameters<typeof selectCohort>[1]) => selectCohort(data, cohort).entries.map((item) => item.id);
    expect(ids({ weights: "yes" })).toEqual(["tuned", "small", "base"]);
    expect(ids({ weights: "no" })).toEqual(["api", "base"]);
    expect(ids({ approach: "fine-tuned-llm", source: "no" })).toEqual(["tuned", "base"]);
    expect(ids({ source: "yes" })).toEqual(["api", "base"]);
    expect(ids({ cutoff: "before" })).toEqual(["tuned", "base"]);
    expect(ids({ cutoff: "after" })).toEqual(["api", "base"]);
    expect(ids({ tier: "reproduced" })).toEqual(["tuned", "base"]);
    expect(ids({ tier: "documented" })).toEqual(["api", "base"]);
  });

  it("keeps only reported results under the tier filter reported: no entry, no baseline", () => {
    expect(selectCohort(data, { tier: "reported" }).entries).toEqual([]);
    expect(selectCohort(data, { tier: "reported" }).reported.map((item) => item.name)).toEqual([paper.name]);
  });

  it("keeps reported results only without fact-sheet filters, and for tier reported", () => {
    expect(selectCohort(data, {}).reported).toHaveLength(1);
    expect(selectCohort(data, { tier: "reported" }).reported).toHaveLength(1);
    expect(selectCohort(data, { tier: "scored" }).reported).toHaveLength(0);
    expect(selectCohort(data, { weights: "yes" }).reported).toHaveLength(0);
  });

  it("recomputes ranks among the entries of the filtered view, as type views do", () => {
    expect(ranksOf({})).toEqual({ tuned: 1, "reported:paper": null, api: 2, small: 3, base: 4 });
    // Without the closed-weights entry, the smaller open one moves up to 2 and the baseline to 3.
    expect(ranksOf({ weights: "yes" })).toEqual({ tuned: 1, small: 2, base: 3 });
    expect(ranksOf({ approach: "prompted-llm" })).toEqual({ api: 1, base: 2 });
  });

  it("reads the API query strictly and pages leniently, with one canonical key per filter set", () => {
    expect(leaderboardQuerySchema.safeParse({ approach: "magic" }).error?.issues[0]?.message).toBe("must be one of prompted-llm, fine-tuned-llm, retriever, hybrid, other");
    const parsed = leaderboardQuerySchema.parse({ tier: "documented", weights: "yes" });
    expect(cohortOf(parsed)).toEqual({ weights: "yes", tier: "documented" });
    expect(cohortKeyOf(cohortOf(parsed))).toBe("weights=yes&tier=documented");
    expect(cohortKeyOf({})).toBe("");
    expect(cohortOfPageFilters({ ...DEFAULT_FILTERS, approach: "hybrid" })).toEqual({ approach: "hybrid" });
    expect(describeCohort({ weights: "yes", source: "no", cutoff: "before" })).toBe("open weights, no source-collection data, knowledge cutoff before the release date");
  });

  it("treats a baseline as in every cohort", () => {
    expect(isEntryInCohort(baseline, { approach: "retriever", weights: "no", source: "yes", cutoff: "after", tier: "reproduced" }, RELEASE_DATE)).toBe(true);
  });
});

describe("the shared page cache and the filters", () => {
  it("keys a page by its filters: each filter set is its own cached page, in one canonical order", () => {
    const canonical = (pathname: string, search: string) => {
      const address = publicPageAddress(pathname, search);
      return address !== null && address.kind !== "not-found" ? address.path : null;
    };
    expect(canonical("/leaderboard", "?track=closed&weights=yes&approach=fine-tuned-llm")).toBe("/leaderboard?approach=fine-tuned-llm&track=closed&weights=yes");
    expect(canonical("/leaderboard", "?approach=fine-tuned-llm&weights=yes&track=closed")).toBe("/leaderboard?approach=fine-tuned-llm&track=closed&weights=yes");
    expect(canonical("/leaderboard", "?track=open&weights=no")).not.toBe(canonical("/leaderboard", "?track=open&weights=yes"));
    expect(canonical("/leaderboard/types/person", "?track=closed&tier=reproduced")).toBe("/leaderboard/types/person?tier=reproduced&track=closed");
  });
});
