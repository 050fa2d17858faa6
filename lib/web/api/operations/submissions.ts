import { entryVisibilitySchema, factSheetEditSchema, primaryEntrySchema, publicationRequestSchema } from "@/lib/core/submissions/schemas";
import { compareQuerySchema, sampleQuerySchema } from "@/lib/core/submissions/sample-schemas";
import { errorAnalysisComponent, runComparisonComponent, samplePageComponent, submissionNoteComponent, submissionNoteSavedSchema } from "@/lib/core/api-schemas/samples";
import { entryVisibilityChangedSchema, factSheetSavedSchema, primaryEntryChangedSchema, publicationAcceptedSchema, publicationWithdrawnSchema, submissionCreatedSchema, submissionListSchema, submissionViewSchema, quotaLedgerQuerySchema, quotaLedgerSchema, testQuotaSchema, uploadFormSchema } from "@/lib/core/api-schemas/submissions";
import { ID_PARAM, UNAUTHENTICATED, NOT_FOUND, INVALID, RETRY_AFTER, type ApiOperation } from "./shared";

/** Submissions, their samples, publication and quota (lib/web/api/all-operations.ts lists every group). */
export const SUBMISSION_API = {
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
} as const satisfies Record<string, ApiOperation>;
