import { entriesQuerySchema, entryExportQuerySchema, entryIdSchema, leaderboardExportQuerySchema, leaderboardQuerySchema, progressQuerySchema } from "@/lib/core/leaderboard/query-schemas";
import { progressSchema } from "@/lib/core/api-schemas/progress";
import { entryListSchema, entrySchema, leaderboardSchema } from "@/lib/core/api-schemas/leaderboard";
import { PERTURBATION_EXPLANATION, PUBLIC_INTERVAL_EXPLANATION, RANK_EXPLANATION, REPORTED_EXPLANATION, roundingExplanation, sliceNExplanation } from "@/lib/core/format/explanations";
import { NO_QUERY, INVALID, type ApiOperation } from "./shared";

const ENTRY_PARAM = { id: entryIdSchema.describe("a public entry's id") };

/** The public leaderboard, entries and exports (lib/web/api/all-operations.ts lists every group). */
export const LEADERBOARD_API = {
  getLeaderboard: {
    method: "get",
    path: "/api/leaderboard",
    tag: "Leaderboard",
    summary: "The public leaderboard of the active release, best first",
    description:
      `Ranks by paired tests (protocol section 13): ${RANK_EXPLANATION} Intervals: ${PUBLIC_INTERVAL_EXPLANATION} ${sliceNExplanation()} ` +
      `Rounding: ${roundingExplanation()} Noise: ${PERTURBATION_EXPLANATION} ${REPORTED_EXPLANATION} ` +
      "Gzip and brotli bodies with a strong ETag (304 on If-None-Match).",
    input: { auth: "public", query: leaderboardQuerySchema },
    responses: { 200: { description: "One page of the leaderboard", schema: leaderboardSchema }, 404: { description: "No release is active" }, 422: INVALID },
  },
  getLeaderboardProgress: {
    method: "get",
    path: "/api/leaderboard/progress",
    tag: "Leaderboard",
    summary: "Progress over time: the best published score of a view by date, with its states of the art",
    description:
      "Every public entry and baseline of the view by publication date, and reported results at their paper's date. A new state of the art " +
      "is marked only when McNemar's exact test against the previous one is significant (p < 0.05); reported results never are. Values are the disclosed ones.",
    input: { auth: "public", query: progressQuerySchema },
    responses: { 200: { description: "The timeline", schema: progressSchema }, 404: { description: "No release is active" }, 422: INVALID },
  },
  exportLeaderboard: {
    method: "get",
    path: "/api/leaderboard/export",
    tag: "Leaderboard",
    summary: "A leaderboard view as a CSV, JSON or LaTeX file",
    input: { auth: "public", query: leaderboardExportQuerySchema },
    responses: {
      200: { description: "The table, every row", contentType: "text/csv, application/json or application/x-tex" },
      404: { description: "No release is active" },
      422: INVALID,
    },
  },
  listEntries: {
    method: "get",
    path: "/api/entries",
    tag: "Leaderboard",
    summary: "Public entries and baselines of the active release",
    input: { auth: "public", query: entriesQuerySchema },
    responses: { 200: { description: "The entries", schema: entryListSchema }, 404: { description: "No release is active" }, 422: INVALID },
  },
  getEntry: {
    method: "get",
    path: "/api/entries/{id}",
    tag: "Leaderboard",
    summary: "One public entry: scores, intervals, per-type and per-collection tables, comparisons",
    input: { auth: "public", params: ["id"], query: NO_QUERY },
    paramDocs: ENTRY_PARAM,
    responses: { 200: { description: "The entry", schema: entrySchema }, 404: { description: "No public entry has this id" }, 422: INVALID },
  },
  exportEntry: {
    method: "get",
    path: "/api/entries/{id}/export",
    tag: "Leaderboard",
    summary: "One of an entry's tables as a file, or its results for other hubs",
    description:
      "`table` with format csv, json or tex: the per-type or per-collection table. Format model-index: a Hugging Face model-card block; " +
      "eval-results: a Hugging Face .eval_results YAML (dataset.id the Hub dataset HF_DATASET_ID, dates quoted strings, the 95% CI in notes, as the format has no field for it); " +
      "pwc: a Papers-with-Code-style evaluation table; every-eval-ever: an Every Eval Ever record (schema 0.3.0), one evaluation result per metric with " +
      "lower_is_better false and score_details.uncertainty holding the 95% interval, how it is made, n and, for a dev entry's bootstrap, the resamples. " +
      "Values are the disclosed ones the entry page shows (a test entry's are its ranking slice's); rates are fractions. Sent as a download (Content-Disposition).",
    input: { auth: "public", params: ["id"], query: entryExportQuerySchema },
    paramDocs: ENTRY_PARAM,
    responses: {
      200: { description: "The file", contentType: "text/csv, application/json, application/x-tex or application/yaml" },
      404: { description: "No public, scored entry has this id" },
      409: { description: "A hub format was asked of a stale score (another scorer version or gold); it can be exported once re-scored" },
      422: INVALID,
    },
  },
} as const satisfies Record<string, ApiOperation>;
