import { z } from "zod";
import { component } from "./registry";

export const sampleOutcomeQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1).describe("1-based page"),
  pageSize: z.coerce.number().int().min(10).max(500).default(100).describe("rows per page, 10 to 500"),
  filter: z.enum(["all", "right", "wrong"]).default("all"),
});
export type SampleOutcomeQuery = z.infer<typeof sampleOutcomeQuerySchema>;

/** GET /api/submissions/{id}/samples: per-sample outcomes of a dev submission (the dev gold is public). */
export const sampleOutcomeRowSchema = component(
  "SampleOutcome",
  z.object({
    id: z.string(),
    answer: z.string().describe("open: the prediction; closed: the first five QIDs of the ranking"),
    gold: z.object({ qid: z.string(), name: z.string(), type: z.string() }),
    tier: z.number().int().min(1).max(4).nullable().describe("open-world matching tier (1 exact … 4 Jaccard), null when no tier matched"),
    rank: z.number().int().positive().nullable().describe("closed-world: 1-based rank of the gold QID, null when not ranked"),
    isAliasHitAt1: z.boolean(),
    isRight: z.boolean(),
  }),
);

export const sampleOutcomePageSchema = component(
  "SampleOutcomePage",
  z.object({
    rows: z.array(sampleOutcomeRowSchema),
    total: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    pageSize: z.number().int().positive(),
  }),
);
