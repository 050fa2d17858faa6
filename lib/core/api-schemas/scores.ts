import { z } from "zod";
import { component } from "./registry";
import { P_VALUE_BUCKETS } from "@/lib/core/disclosure/disclose";
import { bootstrapIntervalShort, PUBLIC_INTERVAL_EXPLANATION } from "@/lib/core/format/explanations";

/**
 * Score shapes as they leave the server, after lib/core/disclosure (protocol
 * section 12): rates are fractions in [0, 1], rounded for test submissions
 * that are not the viewer's to see in full; intervals are [low, high].
 */
export const intervalSchema = z
  .tuple([z.number(), z.number()])
  .describe(`95% interval [low, high]. Public test numbers: ${PUBLIC_INTERVAL_EXPLANATION} Dev numbers and a maintainer's unrounded view: the ${bootstrapIntervalShort()}.`);

// Values are optional only for TypeScript: the server builds these maps as Partial records.
const metricValues = z.record(z.string(), z.number().optional()).describe("metric key (exact, alias, contain, jaccard; hit@1, hit@3, hit@5, hit@10, mrr, alias_hit@1) to value");

const disclosedGroupSchema = component(
  "DisclosedGroup",
  z.object({
    n: z.number().int().nonnegative(),
    isSuppressed: z.boolean().describe("true: fewer samples than the release's min_group_n (test split); n only"),
    metrics: z.record(z.string(), z.number().nullable().optional()),
    ci95: z.record(z.string(), intervalSchema.nullable().optional()),
  }),
);

export const disclosedReportSchema = component(
  "DisclosedReport",
  z.object({
    scorer_version: z.string(),
    split: z.enum(["dev", "test"]),
    track: z.enum(["open", "closed"]),
    n: z.number().int().nonnegative(),
    metrics: metricValues,
    ci95: z.record(z.string(), intervalSchema.optional()),
    by_type: z.record(z.string(), disclosedGroupSchema.optional()).nullable().describe("null: not disclosed to this viewer (owner of an unpublished test submission)"),
    by_collection: z.record(z.string(), disclosedGroupSchema).nullable(),
    disclosure: z.object({
      level: z.enum(["full", "public", "owner"]),
      min_group_n: z.number().int().nullable(),
      coarse_below_n: z.number().int().nullable().describe("public group rates are to 1 point in groups of fewer ranking samples (protocol section 12); null below the public level"),
    }),
  }),
);

const comparisonBase = {
  baselineId: z.string(),
  baselineLabel: z.string(),
  family: z.enum(["track", "unified"]).describe("Holm family (protocol section 9)"),
  identicalTo: z.string().nullable(),
  metric: z.string(),
};

/** The owner of an unpublished test submission sees a verdict; everyone else the McNemar counts. */
export const disclosedComparisonSchema = component(
  "DisclosedComparison",
  z.discriminatedUnion("kind", [
    z.object({
      kind: z.literal("verdict"),
      ...comparisonBase,
      verdict: z.enum(["better", "worse", "no significant difference"]),
      pHolmBucket: z.enum(P_VALUE_BUCKETS),
    }),
    z.object({
      kind: z.literal("detail"),
      ...comparisonBase,
      b: z.number().int().nonnegative().describe("samples this submission gets right and the baseline wrong"),
      c: z.number().int().nonnegative().describe("samples the baseline gets right and this submission wrong"),
      chi2: z.number(),
      p: z.number(),
      pExact: z.number(),
      pHolm: z.number(),
    }),
  ]),
);

export type DisclosedReportBody = z.output<typeof disclosedReportSchema>;
