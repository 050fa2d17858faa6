import { z } from "zod";
import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-schema";
import { cohortQueryShape, pageCohortSchema } from "./cohort-filters";
import { EXPORT_FORMATS } from "@/lib/core/leaderboard/export-tables";
import { HUB_EXPORT_FORMATS } from "@/lib/core/leaderboard/hub-exports";
import { ENTRY_SCOPES } from "./primary-entries";
import { LEADERBOARD_TRACKS, TYPE_SLUGS, typeFromSlug } from "./views";

/**
 * Query strings of the leaderboard pages and the public API, in one place.
 * The API is strict (an unknown parameter or a bad value is a 422 naming it);
 * pages read the same schemas leniently and fall back to defaults.
 */

const TYPE_HINT = `one of ${ENTITY_TYPES.map((type) => `"${type}"`).join(", ")} or its slug (${Object.values(TYPE_SLUGS).join(", ")})`;

const entityTypeParamSchema = z
  .string()
  .transform((value, context): EntityType => {
    const type = typeFromSlug(value);
    if (type === null) {
      context.addIssue({ code: "custom", message: `unknown entity type "${value}"; use ${TYPE_HINT}` });
      return z.NEVER;
    }
    return type;
  });

/** Submission ids are cuids; anything else cannot name an entry. */
export const entryIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, { message: "is not an entry id" });

const trackSchema = z.enum(LEADERBOARD_TRACKS, { message: `must be one of ${LEADERBOARD_TRACKS.join(", ")}` });
const formatSchema = z.enum(EXPORT_FORMATS, { message: `must be one of ${EXPORT_FORMATS.join(", ")}` });

const viewQuery = {
  track: trackSchema.default("open"),
  type: entityTypeParamSchema.optional(),
  /** "primary" (default): each participant's primary entry of a track; "all": every public entry. */
  scope: z.enum(ENTRY_SCOPES, { message: `must be one of ${ENTRY_SCOPES.join(", ")}` }).default("primary"),
  /** Fact-sheet and provenance filters: the view is built from the matching entries, ranks recomputed among them. */
  ...cohortQueryShape,
};

const API_PAGE_LIMIT = { default: 100, max: 1000 } as const;

/** The JSON API pages its rows (best first): `limit` rows from `offset`. */
export const leaderboardQuerySchema = z
  .object({
    ...viewQuery,
    limit: z.coerce
      .number({ message: "must be a number" })
      .int({ message: "must be a whole number" })
      .min(1, { message: "must be at least 1" })
      .max(API_PAGE_LIMIT.max, { message: `must be at most ${API_PAGE_LIMIT.max}` })
      .default(API_PAGE_LIMIT.default),
    offset: z.coerce.number({ message: "must be a number" }).int({ message: "must be a whole number" }).min(0, { message: "must be at least 0" }).default(0),
  })
  .strict();
export type LeaderboardQuery = z.infer<typeof leaderboardQuerySchema>;

/** Downloads always hold every row of the view. */
export const leaderboardExportQuerySchema = z.object({ ...viewQuery, format: formatSchema.default("csv") }).strict();

/** The progress timeline of a view: all public entries, so no scope. */
export const progressQuerySchema = z.object({ track: viewQuery.track, type: viewQuery.type }).strict();

/** The progress page: a bad track falls back to "open"; an unknown type shows the overall timeline. */
export const progressPageQuerySchema = z.object({
  track: trackSchema.catch("open"),
  type: entityTypeParamSchema.optional().catch(undefined),
});

const ENTRY_KINDS = ["all", "submissions", "baselines"] as const;

export const entriesQuerySchema = z
  .object({
    track: z.enum(["open", "closed"], { message: "must be open or closed" }).optional(),
    split: z.enum(["dev", "test"], { message: "must be dev or test" }).optional(),
    kind: z.enum(ENTRY_KINDS, { message: `must be one of ${ENTRY_KINDS.join(", ")}` }).default("all"),
  })
  .strict();
export type EntriesQuery = z.infer<typeof entriesQuerySchema>;

const ENTRY_TABLES = ["by-type", "by-collection"] as const;

const ENTRY_EXPORT_FORMATS = [...EXPORT_FORMATS, ...HUB_EXPORT_FORMATS] as const;

/**
 * One of an entry's tables (`table` with csv, json or tex), or its results for
 * another hub (`format` model-index, eval-results, pwc or every-eval-ever, no table).
 */
export const entryExportQuerySchema = z
  .object({
    table: z.enum(ENTRY_TABLES, { message: `must be one of ${ENTRY_TABLES.join(", ")}` }).optional(),
    format: z.enum(ENTRY_EXPORT_FORMATS, { message: `must be one of ${ENTRY_EXPORT_FORMATS.join(", ")}` }).default("csv"),
  })
  .strict()
  .superRefine((query, context) => {
    const isTableFormat = (EXPORT_FORMATS as readonly string[]).includes(query.format);
    if (isTableFormat && query.table === undefined) {
      context.addIssue({ code: "custom", path: ["table"], message: `is required with format ${query.format}: one of ${ENTRY_TABLES.join(", ")}` });
    }
    if (!isTableFormat && query.table !== undefined) {
      context.addIssue({ code: "custom", path: ["table"], message: `is not used with format ${query.format} (the export holds the entry's overall results); leave it out` });
    }
  });

export const compareQuerySchema = z.object({ a: entryIdSchema, b: entryIdSchema });

/** A page's searchParams prop as single strings (the first of repeated values). */
export function firstValues(params: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) out[key] = first;
  }
  return out;
}

/** The matrix page's view: a bad or missing track falls back to "open"; an unknown type fails (the page is then a 404). */
export const matrixPageQuerySchema = z.object({
  track: trackSchema.catch("open"),
  type: entityTypeParamSchema.optional(),
  // The matrix of a filtered view is built from the same entries (lib/core/leaderboard/cohort-filters.ts).
  ...pageCohortSchema.shape,
});

/** The view a page shows: like the API's, but a bad track falls back to "open". */
export function pageTrack(params: Record<string, string>): (typeof LEADERBOARD_TRACKS)[number] {
  const parsed = trackSchema.safeParse(params.track);
  return parsed.success ? parsed.data : "open";
}
