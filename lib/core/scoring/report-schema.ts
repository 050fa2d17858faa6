import { z } from "zod";
import { ENTITY_TYPES } from "@/lib/core/dataset/release-schema";
import { CLOSED_METRIC_KEYS, OPEN_METRIC_KEYS, SCORED_SPLITS } from "./tracks";

/**
 * The JSON a score is reported as (protocol section 11): what the CLI prints
 * with --json and what the server stores. Types are inferred from here.
 * Rates are fractions in [0, 1] at full double precision.
 */

const intervalSchema = z.tuple([z.number(), z.number()]);
const countSchema = z.number().int().nonnegative();

const comparisonSchema = z.object({
  baseline: z.string(),
  metric: z.enum(["alias", "hit@1", "unified"]),
  b: countSchema,
  c: countSchema,
  chi2: z.number().nonnegative(),
  p: z.number().min(0).max(1),
  p_exact: z.number().min(0).max(1),
  p_holm: z.number().min(0).max(1),
});

function reportSchemaOf<const T extends "open" | "closed", const K extends string>(track: T, keys: readonly [K, ...K[]]) {
  const metricKey = z.enum(keys);
  const metrics = z.record(metricKey, z.number());
  return z.object({
    scorer_version: z.string(),
    split: z.enum(SCORED_SPLITS),
    track: z.literal(track),
    n: countSchema,
    metrics,
    ci95: z.record(metricKey, intervalSchema),
    // Section 8: all seven types; a type with n = 0 has null metrics and intervals.
    by_type: z.record(
      z.enum(ENTITY_TYPES),
      z.object({
        n: countSchema,
        metrics: z.record(metricKey, z.number().nullable()),
        ci95: z.record(metricKey, intervalSchema.nullable()),
      }),
    ),
    by_collection: z.record(z.string(), z.object({ n: countSchema, metrics })),
    comparisons: z.array(comparisonSchema),
  });
}

const openScoreReportSchema = reportSchemaOf("open", OPEN_METRIC_KEYS);
const closedScoreReportSchema = reportSchemaOf("closed", CLOSED_METRIC_KEYS);
export const scoreReportSchema = z.discriminatedUnion("track", [openScoreReportSchema, closedScoreReportSchema]);

export type OpenScoreReport = z.infer<typeof openScoreReportSchema>;
export type ClosedScoreReport = z.infer<typeof closedScoreReportSchema>;
export type ScoreReport = z.infer<typeof scoreReportSchema>;
