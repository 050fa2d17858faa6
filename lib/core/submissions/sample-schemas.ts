import { z } from "zod";
import { hasControlCharacters } from "@/lib/core/accounts/control-characters";
import { ENTITY_TYPES } from "@/lib/core/dataset/release-schema";
import { CLOSED_ERROR_CLASSES, OPEN_ERROR_CLASSES, type ErrorClass } from "@/lib/core/scoring/error-taxonomy";
import type { Track } from "@/lib/core/scoring/tracks";

/**
 * Query and response shapes of the instance browser (`GET
 * /api/submissions/ID/samples`), the error analysis (`GET
 * /api/submissions/ID/analysis`) and the comparison of two runs (`GET
 * /api/submissions/compare`). One place for the page, the API and the
 * OpenAPI document.
 */

const SAMPLE_PAGE_SIZE_MAX = 500;
const SAMPLE_PAGE_SIZE_DEFAULT = 50;
export const SAMPLE_PAGE_SIZES = [25, 50, 100, 250, 500] as const;

/** Open-world: the tier (section 6); closed-world: where the gold is ranked (section 7). */
const OPEN_TIER_BUCKETS = ["1", "2", "3", "4", "none"] as const;
const CLOSED_RANK_BUCKETS = ["1", "2-3", "4-5", "6-10", "11-100", "none"] as const;
const ALL_ERROR_CLASSES = [...OPEN_ERROR_CLASSES, ...CLOSED_ERROR_CLASSES.filter((name) => name !== "correct")] as const;
const SAMPLE_SORT_KEYS = ["order", "id", "type", "collection", "outcome", "class"] as const;
const SAMPLE_FORMATS = ["json", "csv", "jsonl"] as const;
/** With `against`: which samples of the pair to list (fixed: wrong before, right now). */
const CHANGE_FILTERS = ["changed", "fixed", "broken", "all"] as const;

export type TierOrRankBucket = (typeof OPEN_TIER_BUCKETS)[number] | (typeof CLOSED_RANK_BUCKETS)[number];
export type SampleSortKey = (typeof SAMPLE_SORT_KEYS)[number];

export function bucketsOf(track: Track): readonly TierOrRankBucket[] {
  return track === "open" ? OPEN_TIER_BUCKETS : CLOSED_RANK_BUCKETS;
}

/** A GET form sends every field; an empty one means "any". */
const blankAsAbsent = (value: unknown) => (value === "" ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsAbsent, schema.optional());

export const sampleQuerySchema = z.strictObject({
  page: z.preprocess(blankAsAbsent, z.coerce.number().int("must be a whole number").min(1, "must be 1 or more").default(1)),
  pageSize: z.preprocess(
    blankAsAbsent,
    z.coerce
      .number()
      .int("must be a whole number")
      .min(1, "must be 1 or more")
      .max(SAMPLE_PAGE_SIZE_MAX, `must be at most ${SAMPLE_PAGE_SIZE_MAX}`)
      .default(SAMPLE_PAGE_SIZE_DEFAULT),
  ),
  type: optional(z.enum(ENTITY_TYPES, `must be one of ${ENTITY_TYPES.join(", ")}`)),
  collection: optional(z.string().max(200, "must be at most 200 characters")),
  bucket: optional(z.enum([...new Set([...OPEN_TIER_BUCKETS, ...CLOSED_RANK_BUCKETS])], "must be a tier (1, 2, 3, 4, none) or a rank bucket (1, 2-3, 4-5, 6-10, 11-100, none)")),
  class: optional(z.enum(ALL_ERROR_CLASSES, `must be one of ${ALL_ERROR_CLASSES.join(", ")}`)),
  outcome: z.preprocess(blankAsAbsent, z.enum(["all", "right", "wrong"], "must be all, right or wrong").default("all")),
  q: optional(z.string().max(200, "must be at most 200 characters")),
  sort: z.preprocess(blankAsAbsent, z.enum(SAMPLE_SORT_KEYS, `must be one of ${SAMPLE_SORT_KEYS.join(", ")}`).default("order")),
  dir: z.preprocess(blankAsAbsent, z.enum(["asc", "desc"], "must be asc or desc").default("asc")),
  format: z.preprocess(blankAsAbsent, z.enum(SAMPLE_FORMATS, "must be json, csv or jsonl").default("json")),
  /** Another dev run of the same owner, split, release and track: rows carry its answer and the change. */
  against: optional(z.string().max(64, "must be a submission id")),
  change: z.preprocess(blankAsAbsent, z.enum(CHANGE_FILTERS, `must be one of ${CHANGE_FILTERS.join(", ")}`).default("changed")),
});
export type SampleQuery = z.infer<typeof sampleQuerySchema>;

const entityTypeSchema = z.enum(ENTITY_TYPES);
const rankedEntitySchema = z.object({ qid: z.string(), name: z.string(), type: entityTypeSchema });
const errorClassSchema = z.enum(ALL_ERROR_CLASSES);

/** One run's answer to one sample. */
const sampleAnswerSchema = z.object({
  /** Open-world: the prediction as submitted. Null on the closed track. */
  prediction: z.string().nullable(),
  /** Closed-world: the top 5 of the ranking with the KB's names and types. Null on the open track. */
  top: z.array(rankedEntitySchema).nullable(),
  /** Open-world tier 1-4, null for no match (or on the closed track). */
  tier: z.number().int().min(1).max(4).nullable(),
  /** Closed-world 1-based gold rank, null when not ranked (or on the open track). */
  rank: z.number().int().min(1).max(100).nullable(),
  isAliasHitAt1: z.boolean(),
  /** Right on the track's primary metric (alias tier or better; hit@1). */
  isRight: z.boolean(),
  errorClass: errorClassSchema,
  /** The type of the entity the answer names (open: by name or alias; closed: the top entity), null when none. */
  answerType: entityTypeSchema.nullable(),
});
export type SampleAnswer = z.infer<typeof sampleAnswerSchema>;

export const sampleRowSchema = sampleAnswerSchema.extend({
  id: z.string(),
  collection: z.string(),
  /** The entity-elided narrative (`implicit_text`). */
  narrative: z.string(),
  gold: z.object({
    qid: z.string(),
    name: z.string(),
    type: entityTypeSchema,
    aliases: z.array(z.string()),
    description: z.string(),
  }),
  /** With `against`: the other run's answer and what changed (fixed: wrong there, right here). */
  against: sampleAnswerSchema.extend({ change: z.enum(["fixed", "broken", "same"]) }).optional(),
});
export type SampleRow = z.infer<typeof sampleRowSchema>;

export const samplePageSchema = z.object({
  submissionId: z.string(),
  track: z.enum(["open", "closed"]),
  /** The run compared with, when `against` was given. */
  against: z.string().nullable(),
  /** Rows matching the filters (all pages). */
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  rows: z.array(sampleRowSchema),
  /** The dev split's collections (values of the collection filter). */
  collections: z.array(z.string()),
});
export type SamplePage = z.infer<typeof samplePageSchema>;

const classCountsSchema = z.record(z.string(), z.number().int());

/** Error classes of a submission: everything on dev; on test only shares, after publication (section 12). */
export const errorAnalysisSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("dev"),
    submissionId: z.string(),
    track: z.enum(["open", "closed"]),
    n: z.number().int(),
    classes: z.array(z.string()),
    counts: classCountsSchema,
    byType: z.record(z.string(), z.object({ n: z.number().int(), counts: classCountsSchema })),
    /** Gold type (rows) x type the answer names (columns, "none": no KB entity). */
    confusion: z.record(z.string(), z.record(z.string(), z.number().int())),
  }),
  z.object({
    kind: z.literal("test"),
    submissionId: z.string(),
    track: z.enum(["open", "closed"]),
    /** The samples the shares are of (protocol section 12): the ranking slice for the owner of a published entry, the whole split for a maintainer. */
    slice: z.enum(["ranking", "whole"]),
    /** The slice's samples. */
    n: z.number().int(),
    classes: z.array(z.string()),
    /** Share of samples per class: on the ranking slice rounded to 0.1 percentage point, a maintainer's unrounded; no per-type or per-sample numbers. */
    shares: z.record(z.string(), z.number()),
  }),
]);
export type ErrorAnalysis = z.infer<typeof errorAnalysisSchema>;

export const compareQuerySchema = z.strictObject({
  old: z.string().min(1, "name the earlier run").max(64),
  new: z.string().min(1, "name the newer run").max(64),
});
export type CompareQuery = z.infer<typeof compareQuerySchema>;

export const runComparisonSchema = z.object({
  old: z.object({ id: z.string(), originalName: z.string(), note: z.string(), createdAt: z.string() }),
  new: z.object({ id: z.string(), originalName: z.string(), note: z.string(), createdAt: z.string() }),
  track: z.enum(["open", "closed"]),
  metric: z.enum(["alias", "hit@1"]),
  n: z.number().int(),
  oldRate: z.number(),
  newRate: z.number(),
  /** b = fixed (wrong in the old run, right in the new), c = broken. */
  mcnemar: z.object({ b: z.number().int(), c: z.number().int(), chi2: z.number(), p: z.number(), p_exact: z.number() }),
  byType: z.array(
    z.object({
      type: entityTypeSchema,
      n: z.number().int(),
      oldRate: z.number().nullable(),
      newRate: z.number().nullable(),
      fixed: z.number().int(),
      broken: z.number().int(),
    }),
  ),
});
export type RunComparisonView = z.infer<typeof runComparisonSchema>;

export const submissionNoteSchema = z.object({
  note: z
    .string("must be text")
    .max(1000, "must be at most 1,000 characters")
    // Line breaks and tabs are text; any other control character is not.
    .refine((text) => !hasControlCharacters(text.replace(/[\n\r\t]/g, "")), "must not contain control characters")
    .transform((text) => text.trim()),
});

export function isClassOfTrack(track: Track, name: ErrorClass): boolean {
  return (track === "open" ? (OPEN_ERROR_CLASSES as readonly string[]) : (CLOSED_ERROR_CLASSES as readonly string[])).includes(name);
}
