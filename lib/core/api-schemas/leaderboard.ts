import { z } from "zod";
import { APPROACHES, factSheetSchema } from "@/lib/core/fact-sheet/schema";
import { SPLIT_PARTS } from "@/lib/core/leaderboard/split-part";
import { PROVENANCE_TIERS } from "@/lib/core/fact-sheet/tiers";
import { component } from "./registry";
import { intervalSchema } from "./scores";
import { P_VALUE_BUCKETS } from "@/lib/core/disclosure/disclose";

/**
 * Bodies of the public read-only leaderboard API (lib/core/leaderboard/api-shapes.ts,
 * docs/leaderboard.md): snake_case like the score report of protocol section 11,
 * aggregates only.
 */

const releaseSchema = z.object({ name: z.string(), version: z.string() });
const trackSchema = z.enum(["open", "closed"]);

const estimateSchema = z.object({ value: z.number(), ci95: intervalSchema.nullable() });
const typeEstimateSchema = z.object({
  n: z.number().int().nullable(),
  value: z.number().nullable(),
  ci95: intervalSchema.nullable(),
  isSuppressed: z.boolean().optional(),
});

const VERDICTS = ["better", "worse", "no significant difference"] as const;

/** A public pair's reading (protocol sections 12 and 13): no b, c, chi2 or exact p. */
const pairReadingShape = {
  verdict: z.enum(VERDICTS).describe("the section 13 test of the pair in the view, from this entry's side"),
  p_bucket: z.enum(P_VALUE_BUCKETS).describe("the Holm-adjusted p of the test that decides, as a bucket"),
  difference: z.number().describe("this entry's shown (rounded) value minus the other's, as a fraction"),
};

const leaderboardRowSchema = component(
  "LeaderboardRow",
  z.object({
    rank: z.number().int().positive().nullable().describe("rank_lo: kept for clients of the first API"),
    rank_lo: z.number().int().positive().nullable().describe("1 + the entries significantly better (protocol section 13); null for reported results"),
    rank_hi: z.number().int().positive().nullable().describe("N - the entries this one is significantly better than (protocol section 13); null for reported results"),
    rank_reason: z
      .object({
        better: z.array(z.object({ id: z.string(), system: z.string(), p_bucket: z.enum(P_VALUE_BUCKETS) })),
        beats: z.number().int().describe("how many entries of the view this one is significantly better than"),
        ranked: z.number().int().describe("N, the ranked entries of the view"),
      })
      .nullable(),
    kind: z.enum(["submission", "baseline", "reported"]),
    split_part: z.enum(SPLIT_PARTS).describe("the samples of this row's numbers (protocol section 12): reported results (papers) on the whole test split, the rest on the ranking slice"),
    id: z.string().nullable(),
    system: z.string(),
    team: z.string().nullable(),
    track: trackSchema,
    n: z.number().int().nullable(),
    parameter_count: z.number().nullable(),
    open_weights: z.boolean().nullable(),
    approach: z.enum(APPROACHES).nullable().describe("from the fact sheet; null when not stated"),
    uses_source_data: z.boolean().nullable().describe("used data from the source oral-history collections (fact sheet)"),
    knowledge_cutoff: z.string().nullable().describe("the base model's knowledge cutoff, ISO month or date (fact sheet)"),
    tier: z.enum(PROVENANCE_TIERS).describe("provenance: reported, scored, documented or reproduced"),
    date: z.string().nullable(),
    stale: z.boolean(),
    source: z.string().nullable(),
    metrics: z.record(z.string(), estimateSchema.nullable()),
    by_type: z.record(z.string(), typeEstimateSchema).nullable(),
    significance: z
      .object({
        baseline_id: z.string(),
        baseline: z.string(),
        metric: z.string(),
        ...pairReadingShape,
      })
      .nullable(),
    url: z.string().nullable(),
  }),
);

export const leaderboardSchema = component(
  "Leaderboard",
  z.object({
    release: releaseSchema,
    split: z.literal("test"),
    track: z.enum(["open", "closed", "unified"]),
    type: z.string().nullable(),
    rank_metric: z.string(),
    columns: z.array(z.string()).readonly(),
    rank_rule: z.string(),
    best_baseline: z.object({ id: z.string(), name: z.string(), metric: z.string(), value: z.number() }).nullable(),
    total: z.number().int().nonnegative(),
    offset: z.number().int().nonnegative(),
    limit: z.number().int().positive(),
    next: z.string().nullable().describe("the next page's URL, null on the last page"),
    entries: z.array(leaderboardRowSchema),
  }),
);

const entrySummarySchema = component(
  "EntrySummary",
  z.object({
    id: z.string(),
    system: z.string(),
    team: z.string(),
    track: trackSchema,
    split: z.enum(["dev", "test"]),
    baseline: z.boolean(),
    n: z.number().int(),
    primary: z.number(),
    unified: z.number(),
    stale: z.boolean(),
    date: z.string().nullable(),
    url: z.string(),
  }),
);

export const entryListSchema = component("EntryList", z.object({ release: releaseSchema, entries: z.array(entrySummarySchema) }));

// Optional values only for TypeScript: the server builds these maps as Partial records.
const groupSchema = z.object({
  n: z.number().int().nonnegative(),
  suppressed: z.boolean(),
  metrics: z.record(z.string(), z.number().nullable().optional()),
  ci95: z.record(z.string(), intervalSchema.nullable().optional()),
});

export const entrySchema = component(
  "Entry",
  z.object({
    id: z.string(),
    system: z.string(),
    team: z.string(),
    affiliation: z.string(),
    track: trackSchema,
    split: z.enum(["dev", "test"]),
    baseline: z.boolean(),
    description: z.string().nullable(),
    paper_url: z.string().nullable(),
    code_url: z.string().nullable(),
    parameter_count: z.number().nullable(),
    open_weights: z.boolean().nullable(),
    fact_sheet: factSheetSchema.nullable().describe("the fact sheet (version 1); null for baselines"),
    fact_sheet_missing: z.array(z.string()).describe("fact sheet answers not stated (empty when complete)"),
    provenance: z.object({
      tier: z.enum(PROVENANCE_TIERS),
      reproduced_at: z.string().nullable(),
      reproduced_by: z.string().nullable(),
    }),
    published_at: z.string().nullable(),
    created_at: z.string(),
    release: releaseSchema,
    score: z
      .object({
        scorer_version: z.string().describe("the scorer's version (protocol section 10): what the downloaded irc-bench-score.mjs prints with --version"),
        platform_scoring_version: z.string().describe("the platform scoring version the score was stored under (the scorer's rules plus what the server keeps beside the report); not the scorer's"),
        gold_version: z.string(),
        min_group_n: z.number().int().nullable(),
        stale: z.boolean(),
        computed_at: z.string(),
        n: z.number().int(),
        metrics: z.record(z.string(), z.number().optional()),
        ci95: z.record(z.string(), intervalSchema.optional()),
        by_type: z.record(z.string(), groupSchema),
        by_collection: z.record(z.string(), groupSchema),
      })
      .nullable(),
    comparisons: z.array(
      z.object({
        baseline_id: z.string(),
        baseline: z.string(),
        view: z.string().describe("the leaderboard view whose section 13 test this is: the entry's track, all types"),
        metric: z.string(),
        ...pairReadingShape,
      }),
    ),
    url: z.string(),
  }),
);
