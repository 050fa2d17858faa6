import { describe, expect, it } from "vitest";
import { DEFAULT_FILTERS, filterRows, filtersToSearchParams, leaderboardFiltersSchema, type FilterableRow } from "./filter-rows";

const rows: (FilterableRow & { id: string })[] = [
  { id: "llama", kind: "submission", system: "Llama QLoRA", team: "Birch NLP", parameterCount: 8e9 },
  { id: "gpt", kind: "submission", system: "GPT few-shot", team: "Cobalt AI", parameterCount: null },
  { id: "bge", kind: "baseline", system: "BGE retriever", team: "IRC-Bench maintainers", parameterCount: 110e6 },
  { id: "paper", kind: "reported", system: "O10 Llama 3.1 8B (QLoRA)", team: null, parameterCount: null },
];

const ids = (kept: typeof rows) => kept.map((row) => row.id);
const noRange = { min: null, max: null };

describe("filterRows", () => {
  it("keeps everything with the default filters", () => {
    expect(ids(filterRows(rows, DEFAULT_FILTERS, noRange))).toEqual(["llama", "gpt", "bge", "paper"]);
  });

  it("separates baselines from submissions and leaves reported rows to their own switch", () => {
    expect(ids(filterRows(rows, { ...DEFAULT_FILTERS, entries: "baselines" }, noRange))).toEqual(["bge", "paper"]);
    expect(ids(filterRows(rows, { ...DEFAULT_FILTERS, entries: "submissions" }, noRange))).toEqual(["llama", "gpt", "paper"]);
    expect(ids(filterRows(rows, { ...DEFAULT_FILTERS, entries: "submissions", reported: "hide" }, noRange))).toEqual(["llama", "gpt"]);
  });

  it("leaves the cohort filters (weights, approach, source, cutoff, tier) to the view's build: they do not narrow its rows", () => {
    const cohort = { ...DEFAULT_FILTERS, weights: "yes" as const, approach: "hybrid" as const, source: "no" as const, cutoff: "before" as const, tier: "reproduced" as const };
    expect(ids(filterRows(rows, cohort, noRange))).toEqual(["llama", "gpt", "bge", "paper"]);
  });

  it("applies an inclusive parameter range and drops unknown sizes once a bound is set", () => {
    expect(ids(filterRows(rows, DEFAULT_FILTERS, { min: 1e9, max: null }))).toEqual(["llama"]);
    expect(ids(filterRows(rows, DEFAULT_FILTERS, { min: null, max: 110e6 }))).toEqual(["bge"]);
    expect(ids(filterRows(rows, DEFAULT_FILTERS, { min: 110e6, max: 8e9 }))).toEqual(["llama", "bge"]);
    expect(ids(filterRows(rows, DEFAULT_FILTERS, { min: 9e9, max: null }))).toEqual([]);
  });

  it("searches system and team names case-insensitively", () => {
    expect(ids(filterRows(rows, { ...DEFAULT_FILTERS, q: "llama" }, noRange))).toEqual(["llama", "paper"]);
    expect(ids(filterRows(rows, { ...DEFAULT_FILTERS, q: "  COBALT " }, noRange))).toEqual(["gpt"]);
    expect(ids(filterRows(rows, { ...DEFAULT_FILTERS, q: "nothing like it" }, noRange))).toEqual([]);
  });

  it("combines filters", () => {
    const filters = { ...DEFAULT_FILTERS, entries: "submissions" as const, weights: "yes" as const, reported: "hide" as const };
    expect(ids(filterRows(rows, filters, { min: 1e9, max: 1e10 }))).toEqual(["llama"]);
    expect(ids(filterRows(rows, filters, { min: null, max: null }))).toEqual(["llama", "gpt"]);
  });
});

describe("leaderboardFiltersSchema", () => {
  it("reads the query string and falls back to defaults on bad values", () => {
    expect(leaderboardFiltersSchema.parse({})).toEqual(DEFAULT_FILTERS);
    expect(leaderboardFiltersSchema.parse({ entries: "baselines", weights: "maybe", q: "gpt", track: "open" })).toEqual({
      ...DEFAULT_FILTERS,
      entries: "baselines",
      q: "gpt",
    });
    expect(leaderboardFiltersSchema.parse({ approach: "fine-tuned-llm", source: "no", cutoff: "sometime", tier: "documented" })).toEqual({
      ...DEFAULT_FILTERS,
      approach: "fine-tuned-llm",
      source: "no",
      tier: "documented",
    });
  });

  it("writes only the filters that differ from the defaults", () => {
    expect(filtersToSearchParams(DEFAULT_FILTERS)).toEqual([]);
    expect(filtersToSearchParams({ ...DEFAULT_FILTERS, q: "bge", reported: "hide" })).toEqual([
      ["q", "bge"],
      ["reported", "hide"],
    ]);
  });
});
