import { z } from "zod";
import { entriesQuerySchema, entryExportQuerySchema, entryIdSchema, leaderboardExportQuerySchema, leaderboardQuerySchema, progressQuerySchema } from "@/lib/leaderboard/query-schemas";
import { progressSchema } from "./schemas/progress";
import { createApiTokenSchema } from "@/lib/tokens/schemas";
import { entryVisibilitySchema, factSheetEditSchema, primaryEntrySchema, publicationRequestSchema } from "@/lib/submissions/schemas";
import { profilePatchSchema } from "@/lib/users/schemas";
import { apiTokenCreatedSchema, apiTokenListSchema, apiTokenRevokedSchema, meSchema } from "./schemas/account";
import { downloadFileSchema, healthReportSchema, sampleSplitSchema } from "./schemas/dataset";
import { entryListSchema, entrySchema, leaderboardSchema } from "./schemas/leaderboard";
import { compareQuerySchema, sampleQuerySchema } from "@/lib/sample-browser/schemas";
import { errorAnalysisComponent, runComparisonComponent, samplePageComponent, submissionNoteComponent, submissionNoteSavedSchema } from "./schemas/samples";
import {
  entryVisibilityChangedSchema,
  factSheetSavedSchema,
  primaryEntryChangedSchema,
  publicationAcceptedSchema,
  publicationWithdrawnSchema,
  submissionCreatedSchema,
  submissionListSchema,
  submissionViewSchema,
  quotaLedgerQuerySchema,
  quotaLedgerSchema,
  testQuotaSchema,
  uploadFormSchema,
} from "./schemas/submissions";

/**
 * Every operation of the public and token API, with the zod schemas of its
 * inputs and answers: the OpenAPI document (lib/api/openapi.ts, served at
 * /api/openapi.json) and the API page (/docs/api) are generated from this
 * list, and lib/api/openapi.test.ts fails when a route under app/api has no
 * entry here. Maintainer-only routes (browser session) are left out on purpose.
 */

type HttpMethod = "get" | "post" | "patch" | "delete";

/**
 * What the route wrapper (lib/http/route.ts) parses before the handler runs:
 * the handler passes this very object to `route()`, so the document describes
 * the schemas the server applies. `auth`: "public" needs no credentials;
 * "user" a browser session or `Authorization: Bearer <API token>`; "session"
 * a browser session only (an API token is refused with 403).
 */
export type OperationInput = {
  auth: "public" | "user" | "session";
  params?: readonly string[];
  query?: z.ZodObject;
  /** A JSON body schema, or "json" when the operation parses the body itself (see `requestBody`). */
  body?: z.ZodType | "json";
};

type OperationBody = { contentType: "application/json" | "multipart/form-data"; schema: z.ZodType };

export type OperationResponse = {
  description: string;
  /** JSON body schema; omitted for a body that is a file (see contentType) or empty. */
  schema?: z.ZodType;
  /** Default application/json when a schema is given. */
  contentType?: string;
  headers?: Readonly<Record<string, string>>;
};

type OperationHeader = { name: string; description: string; isRequired?: boolean };

export type ApiOperation = {
  method: HttpMethod;
  /** OpenAPI path template: /api/submissions/{id}. */
  path: string;
  tag: "Submissions" | "Account" | "Leaderboard" | "Dataset" | "Operations";
  summary: string;
  description?: string;
  input: OperationInput;
  /** How each path parameter of `input.params` looks (default: a string). */
  paramDocs?: Readonly<Record<string, z.ZodType>>;
  /** The documented query when the handler reads it itself instead of `input.query`. */
  queryDocs?: z.ZodObject;
  headers?: readonly OperationHeader[];
  /** The documented body when the handler reads it itself: a streamed upload, or `body: "json"` parsed by the operation. */
  requestBody?: OperationBody;
  responses: Readonly<Record<number, OperationResponse>>;
};

const ID_PARAM = { id: z.string().min(1).max(64).describe("the id the API returned") };
const ENTRY_PARAM = { id: entryIdSchema.describe("a public entry's id") };

/** GET /api/entries/{id} takes no query parameter (an unknown one is a 422). */
const NO_QUERY = z.object({}).strict();
/** GET /dataset/download/{file}[?release=ID] */
const downloadQuerySchema = z.object({ release: z.string().min(1).max(64).optional().describe("a release id; default: the active release") });
/** GET /api/dataset/sample-split?id=... */
const sampleSplitQuerySchema = z.object({ id: z.string().min(1).max(200).describe("a sample id from a download") });

/** Errors most operations can answer; each operation adds its own. */
const UNAUTHENTICATED: OperationResponse = { description: "No session and no token, or an invalid, revoked or expired token" };
const NOT_FOUND: OperationResponse = { description: "Not found, or not yours (the answer does not reveal which)" };
const INVALID: OperationResponse = { description: "Invalid input; `problems` names each one" };

const RETRY_AFTER = { "Retry-After": "seconds until a test submission is free again (the 24-hour window); absent when the total is used up" };
const DOWNLOAD_HEADERS = {
  ETag: "strong ETag: the SHA-256 in quotes (send If-None-Match for a 304)",
  "X-Content-SHA256": "SHA-256 of the body, as listed on the dataset page",
  "Content-Disposition": "attachment with the file name that says which release it is",
};

export const API = {
  createSubmission: {
    method: "post",
    path: "/api/submissions",
    tag: "Submissions",
    summary: "Upload a prediction file",
    description:
      "Every line is validated before anything is queued (protocol section 4). A rejected file answers 422 with every problem and its line and costs no quota. " +
      "The split and track are read from the file unless given. Test submissions count against the quota (GET /api/quota).",
    input: { auth: "user" },
    requestBody: { contentType: "multipart/form-data", schema: uploadFormSchema },
    headers: [
      {
        name: "Idempotency-Key",
        description:
          "a key you choose per upload (1-255 visible ASCII characters, for example a UUID): sending the same file again with the same key, after a timeout, answers 200 with the first submission and charges nothing more; the same key with another file is a 422",
      },
    ],
    responses: {
      200: {
        description: "A retry with an Idempotency-Key already used for this file: the submission that key made, charged once",
        schema: submissionCreatedSchema,
        headers: { Location: "the submission's page", "Idempotent-Replayed": "true" },
      },
      201: { description: "Accepted and queued for scoring", schema: submissionCreatedSchema, headers: { Location: "the submission's page" } },
      400: { description: "The upload was cut off or is not multipart/form-data with a file field" },
      401: UNAUTHENTICATED,
      403: {
        description:
          "Test submissions need a maintainer's approval of the account: by default (TEST_REQUIRES_APPROVAL unset, auto) on releases whose test split has 1,000 samples or more, on every release with TEST_REQUIRES_APPROVAL=1",
      },
      413: { description: "The file is over the server's size limit; it was not read" },
      422: {
        description:
          "The file is invalid: one problem per line (first 50), a byte-identical re-upload of one of the account's test files (naming it; nothing stored, no quota spent), or an Idempotency-Key already used for another file",
      },
      429: { description: "No test submission left (per 24 hours or in total), or past the dev upload limits (per hour, stored bytes per day)", headers: RETRY_AFTER },
      503: { description: "The staging folder, the file store or the scoring queue is unusable; nothing was charged, try again later", headers: { "Retry-After": "seconds" } },
    },
  },
  listSubmissions: {
    method: "get",
    path: "/api/submissions",
    tag: "Submissions",
    summary: "Your submissions, newest first (up to 200)",
    input: { auth: "user" },
    responses: { 200: { description: "Your submissions", schema: submissionListSchema }, 401: UNAUTHENTICATED },
  },
  getSubmission: {
    method: "get",
    path: "/api/submissions/{id}",
    tag: "Submissions",
    summary: "Status, timings, failure reason, scores with intervals and comparisons",
    description: "Poll this until status is SCORED or FAILED. Scores of test submissions are disclosed by the rules of protocol section 12.",
    input: { auth: "user", params: ["id"] },
    paramDocs: ID_PARAM,
    responses: { 200: { description: "The submission", schema: submissionViewSchema }, 401: UNAUTHENTICATED, 404: NOT_FOUND },
  },
  listSampleOutcomes: {
    method: "get",
    path: "/api/submissions/{id}/samples",
    tag: "Submissions",
    summary: "The instance browser of a scored dev submission: filtered, searched, sorted, paged or exported samples",
    description:
      "Dev submissions only: the test split's gold stays hidden, so test submissions answer 404. Filters by entity type, collection, tier or rank bucket, " +
      "error class and outcome; q searches the narrative, the answer and the gold name. format=csv or jsonl exports every filtered row. " +
      "against=ID compares with another dev run of yours (change=fixed, broken, changed or all).",
    input: { auth: "user", params: ["id"], query: sampleQuerySchema },
    paramDocs: ID_PARAM,
    responses: {
      200: { description: "One page of samples (format=json), or the export as a file (format=csv: text/csv; format=jsonl: application/x-ndjson)", schema: samplePageComponent },
      401: UNAUTHENTICATED,
      404: NOT_FOUND,
      422: INVALID,
    },
  },
  getErrorAnalysis: {
    method: "get",
    path: "/api/submissions/{id}/analysis",
    tag: "Submissions",
    summary: "Error classes of a submission: counts, per entity type and the type-confusion matrix (dev); shares only for published test submissions",
    input: { auth: "user", params: ["id"] },
    paramDocs: ID_PARAM,
    responses: { 200: { description: "The error analysis", schema: errorAnalysisComponent }, 401: UNAUTHENTICATED, 404: NOT_FOUND },
  },
  updateSubmissionNote: {
    method: "patch",
    path: "/api/submissions/{id}/note",
    tag: "Submissions",
    summary: "Edit your note on a submission (what you changed in this run)",
    input: { auth: "user", params: ["id"], body: "json" },
    paramDocs: ID_PARAM,
    requestBody: { contentType: "application/json", schema: submissionNoteComponent },
    responses: { 200: { description: "The saved note", schema: submissionNoteSavedSchema }, 400: { description: "The body is not JSON" }, 401: UNAUTHENTICATED, 404: NOT_FOUND, 422: INVALID },
  },
  compareRuns: {
    method: "get",
    path: "/api/submissions/compare",
    tag: "Submissions",
    summary: "Compare two of your dev runs: samples fixed and broken, McNemar, per-type differences",
    description: "The changed samples themselves: GET /api/submissions/{new}/samples?against={old}&change=fixed|broken|changed.",
    input: { auth: "user", query: compareQuerySchema },
    responses: { 200: { description: "The comparison", schema: runComparisonComponent }, 401: UNAUTHENTICATED, 404: NOT_FOUND, 422: INVALID },
  },
  requestPublication: {
    method: "post",
    path: "/api/submissions/{id}/publication",
    tag: "Submissions",
    summary: "Ask to publish a scored test submission on the leaderboard, with its fact sheet",
    description: "Body: the method in words and the fact sheet (version 1); problems name the field by its path, e.g. `factSheet.dataUsed.train`.",
    input: { auth: "user", params: ["id"], body: "json" },
    paramDocs: ID_PARAM,
    requestBody: { contentType: "application/json", schema: publicationRequestSchema },
    responses: {
      202: { description: "Requested; a maintainer reviews it", schema: publicationAcceptedSchema },
      400: { description: "The body is not a JSON object" },
      401: UNAUTHENTICATED,
      404: NOT_FOUND,
      409: { description: "Not a scored test submission, already requested, or the account already has max_entries_per_account entries on this track of the release name (protocol §12)" },
      422: {
        description:
          "A field is invalid, or the file is too close, on the ranking slice, to a baseline or to a file of the account that ever had a publication request (published, pending, hidden, rejected or withdrawn; protocol §12; the message names it)",
      },
      503: { description: "A stored file to compare with could not be read; try again later" },
    },
  },
  editFactSheet: {
    method: "patch",
    path: "/api/submissions/{id}/fact-sheet",
    tag: "Submissions",
    summary: "Replace the fact sheet of your submission (until a maintainer approves it)",
    description:
      "The whole sheet, version 1 (`npm run client -- fact-sheet template` prints a valid example). Read-only for the owner once the entry is approved (409); a maintainer may still correct it, which is written to the audit log with the sheet before and after.",
    input: { auth: "user", params: ["id"], body: "json" },
    paramDocs: ID_PARAM,
    requestBody: { contentType: "application/json", schema: factSheetEditSchema },
    responses: {
      200: { description: "The saved sheet", schema: factSheetSavedSchema },
      400: { description: "The body is not a JSON object" },
      401: UNAUTHENTICATED,
      404: NOT_FOUND,
      409: { description: "The entry is approved: its fact sheet is read-only for the owner" },
      422: INVALID,
    },
  },
  withdrawPublication: {
    method: "delete",
    path: "/api/submissions/{id}/publication",
    tag: "Submissions",
    summary: "Withdraw your pending publication request (the submission is private again; its details are kept)",
    input: { auth: "session", params: ["id"] },
    paramDocs: ID_PARAM,
    responses: {
      200: { description: "Withdrawn", schema: publicationWithdrawnSchema },
      401: UNAUTHENTICATED,
      403: { description: "An API token: this needs a browser session" },
      404: NOT_FOUND,
      409: { description: "No pending request, or a maintainer reviewed it just now" },
    },
  },
  setEntryVisibility: {
    method: "patch",
    path: "/api/submissions/{id}/visibility",
    tag: "Submissions",
    summary: "Hide your published entry from the leaderboard, or show again one you hid",
    description: "An entry a maintainer hid stays hidden (403) until a maintainer approves it again. Recorded in the audit log.",
    input: { auth: "session", params: ["id"], body: entryVisibilitySchema },
    paramDocs: ID_PARAM,
    responses: {
      200: { description: "The entry's publication after the change", schema: entryVisibilityChangedSchema },
      400: { description: "The body is not JSON" },
      401: UNAUTHENTICATED,
      403: { description: "An API token, or an entry a maintainer hid" },
      404: NOT_FOUND,
      409: { description: "Not published (to hide) or not hidden (to show)" },
      422: INVALID,
    },
  },
  setPrimaryEntry: {
    method: "patch",
    path: "/api/submissions/{id}/primary",
    tag: "Submissions",
    summary: "Make a published or pending test entry your primary entry of its track (or unmark it)",
    description: "One per track: marking one unmarks the other. The leaderboard's default view (scope=primary) shows only it among your entries of the track.",
    input: { auth: "session", params: ["id"], body: primaryEntrySchema },
    paramDocs: ID_PARAM,
    responses: {
      200: { description: "The mark after the change", schema: primaryEntryChangedSchema },
      400: { description: "The body is not JSON" },
      401: UNAUTHENTICATED,
      403: { description: "An API token: this needs a browser session" },
      404: NOT_FOUND,
      409: { description: "Not published or pending" },
      422: INVALID,
    },
  },
  getQuota: {
    method: "get",
    path: "/api/quota",
    tag: "Submissions",
    summary: "Your test submissions left on the active release, and your dev upload limits",
    input: { auth: "user" },
    responses: { 200: { description: "The quota", schema: testQuotaSchema }, 401: UNAUTHENTICATED, 404: { description: "No release is active" } },
  },
  getQuotaLedger: {
    method: "get",
    path: "/api/quota/ledger",
    tag: "Submissions",
    summary: "Every charge, refund and grant of your test quota, on the active release or (release=all) on every release",
    description:
      "Newest first, at most 500 rows an answer (hasMore and nextBefore page on). A test file is charged once it passes pre-flight (an invalid file never is); a file the platform failed to score before any score of it was shown (a worker crash, SCORING_MAX_ATTEMPTS reached) is refunded automatically with the reason; a maintainer's retry of a refunded file charges it again; maintainers grant extra test submissions or refund one with a reason. Only your own rows.",
    input: { auth: "user", query: quotaLedgerQuerySchema },
    responses: {
      200: { description: "Your quota ledger", schema: quotaLedgerSchema },
      401: UNAUTHENTICATED,
      404: { description: "No release is active (without release=), or no release has that id" },
      422: { description: "A query parameter is malformed, or before= is not a row of your ledger (the message names the parameter)" },
    },
  },
  getMe: {
    method: "get",
    path: "/api/me",
    tag: "Account",
    summary: "Who the session or token belongs to",
    input: { auth: "user" },
    responses: { 200: { description: "You", schema: meSchema }, 401: UNAUTHENTICATED },
  },
  updateMe: {
    method: "patch",
    path: "/api/me",
    tag: "Account",
    summary: "Edit your display name or affiliation",
    input: { auth: "user", body: profilePatchSchema },
    responses: { 200: { description: "Your profile after the change", schema: meSchema }, 400: { description: "The body is not JSON" }, 401: UNAUTHENTICATED, 422: INVALID },
  },
  listApiTokens: {
    method: "get",
    path: "/api/tokens",
    tag: "Account",
    summary: "Your API tokens (never the tokens themselves)",
    input: { auth: "user" },
    responses: { 200: { description: "Your tokens", schema: apiTokenListSchema }, 401: UNAUTHENTICATED },
  },
  createApiToken: {
    method: "post",
    path: "/api/tokens",
    tag: "Account",
    summary: "Create an API token (browser session only)",
    description: "An API token cannot mint further tokens. The token is in the answer once; the account page does the same.",
    input: { auth: "session", body: createApiTokenSchema },
    responses: {
      201: { description: "The new token", schema: apiTokenCreatedSchema },
      401: UNAUTHENTICATED,
      403: { description: "Sent with an API token, or from another origin" },
      409: { description: "Too many active tokens; revoke one first" },
      422: INVALID,
    },
  },
  revokeApiToken: {
    method: "delete",
    path: "/api/tokens/{id}",
    tag: "Account",
    summary: "Revoke one of your API tokens",
    input: { auth: "user", params: ["id"] },
    paramDocs: ID_PARAM,
    responses: { 200: { description: "The token, now revoked", schema: apiTokenRevokedSchema }, 401: UNAUTHENTICATED, 404: NOT_FOUND },
  },
  getLeaderboard: {
    method: "get",
    path: "/api/leaderboard",
    tag: "Leaderboard",
    summary: "The public leaderboard of the active release, best first",
    description: "Ranks by paired tests (protocol section 13). Gzip and brotli bodies with a strong ETag (304 on If-None-Match).",
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
  getSampleSplit: {
    method: "get",
    path: "/api/dataset/sample-split",
    tag: "Dataset",
    summary: "Which split of the active release a sample id belongs to",
    input: { auth: "public", query: sampleSplitQuerySchema },
    responses: { 200: { description: "The split", schema: sampleSplitSchema }, 404: { description: "Not a sample id of the active release" }, 422: INVALID },
  },
  downloadDataset: {
    method: "get",
    path: "/dataset/download/{file}",
    tag: "Dataset",
    summary: "A file of the release: train.jsonl, dev.jsonl (with gold), test.jsonl (without gold), kb.jsonl",
    input: { auth: "public", params: ["file"] },
    paramDocs: { file: downloadFileSchema },
    queryDocs: downloadQuerySchema,
    responses: {
      200: { description: "JSON Lines, the bytes hashed at import", contentType: "text/plain; charset=utf-8", headers: DOWNLOAD_HEADERS },
      304: { description: "Not modified (If-None-Match matched)" },
      404: { description: "No such file or release" },
    },
  },
  downloadScorer: {
    method: "get",
    path: "/dataset/download/irc-bench-score.mjs",
    tag: "Dataset",
    summary: "The offline scorer: one file for Node.js 20 or later",
    input: { auth: "public" },
    responses: {
      200: { description: "The scorer", contentType: "text/javascript; charset=utf-8", headers: DOWNLOAD_HEADERS },
      304: { description: "Not modified" },
      404: { description: "Not built on this server" },
    },
  },
  downloadClient: {
    method: "get",
    path: "/dataset/download/irc-bench-client.mjs",
    tag: "Dataset",
    summary: "The command-line client (login, submit, status, list, quota, download): one file for Node.js 20 or later",
    input: { auth: "public" },
    responses: {
      200: { description: "The client", contentType: "text/javascript; charset=utf-8", headers: DOWNLOAD_HEADERS },
      304: { description: "Not modified" },
      404: { description: "Not built on this server" },
    },
  },
  getHealth: {
    method: "get",
    path: "/api/health",
    tag: "Operations",
    summary: "Whether this deployment works: database, Redis, queue depth, worker heartbeats",
    input: { auth: "public" },
    responses: {
      200: { description: "Healthy", schema: healthReportSchema },
      503: { description: "Degraded; `problems` names what is wrong", schema: healthReportSchema },
    },
  },
  getOpenApiDocument: {
    method: "get",
    path: "/api/openapi.json",
    tag: "Operations",
    summary: "This document",
    input: { auth: "public" },
    responses: { 200: { description: "The OpenAPI 3.1 document of the public and token API", contentType: "application/json" } },
  },
} as const satisfies Record<string, ApiOperation>;

/** Every operation with its id, in the document's order. */
export const API_OPERATIONS: readonly (ApiOperation & { operationId: string })[] = Object.entries(API).map(([operationId, operation]) => ({
  operationId,
  ...(operation as ApiOperation),
}));

/**
 * Routes under app/api that are not part of the public and token API, and why.
 * lib/api/openapi.test.ts accepts a route file only when it is documented above or listed here.
 */
export const UNDOCUMENTED_ROUTES: Readonly<Record<string, string>> = {
  "/api/auth/{...nextauth}": "next-auth's own sign-in endpoints for the browser",
  "/api/admin/submissions": "maintainers only, with a browser session",
  "/api/admin/submissions/{id}/review": "maintainers only, with a browser session",
  "/api/admin/users/{id}": "maintainers only, with a browser session",
  "/api/admin/users/{id}/quota": "maintainers only, with a browser session",
  "/api/admin/submissions/{id}/reproduction": "maintainers only, with a browser session (provenance tier reproduced)",
  "/api/public-page": "internal: scripts/server/web-server.mjs sends public page requests here for the shared page cache; not an API",
  "/api/account-menu": "internal: the site header's account menu on shared public pages, read by the browser; not an API",
};
