import { z } from "zod";
import { declaredSplitSchema, declaredTrackSchema } from "@/lib/core/submissions/schemas";
import { factSheetSchema } from "@/lib/core/fact-sheet/schema";
import { PROVENANCE_TIERS } from "@/lib/core/fact-sheet/tiers";
import { component } from "./registry";
import { disclosedComparisonSchema, disclosedReportSchema } from "./scores";

/** Bodies of the submission routes (POST/GET /api/submissions, /api/submissions/{id}, /api/quota). */

const SUBMISSION_STATUSES = ["QUEUED", "SCORING", "SCORED", "FAILED"] as const;
const submissionStatusSchema = z.enum(SUBMISSION_STATUSES);
/** Statuses after which nothing changes until a maintainer re-scores. */
export const TERMINAL_STATUSES: readonly string[] = ["SCORED", "FAILED"];

const publicationSchema = z.enum(["PRIVATE", "PENDING", "PUBLISHED", "REJECTED", "HIDDEN"]);
const isoDate = z.string().describe("ISO 8601 date-time, UTC");

/** The multipart form of POST /api/submissions. */
export const uploadFormSchema = component(
  "SubmissionUpload",
  z.object({
    file: z.string().meta({ format: "binary" }).describe("the predictions, JSON Lines: {\"id\", \"prediction\"} (open) or {\"id\", \"ranking\"} (closed) per sample"),
    split: declaredSplitSchema.optional().describe("dev or test; default: the split of the file's first id"),
    track: declaredTrackSchema.optional().describe("open or closed; default: read from the first line"),
  }),
);

export const submissionCreatedSchema = component(
  "SubmissionCreated",
  z.object({
    id: z.string(),
    status: submissionStatusSchema,
    split: z.enum(["train", "dev", "test"]),
    track: z.enum(["open", "closed"]),
    sampleCount: z.number().int().nonnegative(),
    statusUrl: z.string().describe("GET it for the status and scores"),
    pageUrl: z.string().describe("the submission's page on the site"),
  }),
);

const submissionSummarySchema = component(
  "SubmissionSummary",
  z.object({
    id: z.string(),
    originalName: z.string(),
    split: z.string(),
    track: z.string(),
    status: z.string(),
    publication: z.string(),
    isPrimary: z.boolean().describe("your primary entry of its track: the leaderboard's default view shows it alone among your entries"),
    createdAt: isoDate,
    primary: z.number().nullable().describe("the primary metric (alias accuracy or Hit@1), disclosed as on the site; null until scored"),
    failureKind: z.string().nullable(),
    note: z.string().describe("your note on the run"),
  }),
);

export const submissionListSchema = component("SubmissionList", z.object({ submissions: z.array(submissionSummarySchema) }));

export const submissionViewSchema = component(
  "SubmissionView",
  z.object({
    id: z.string(),
    ownerName: z.string(),
    isViewerOwner: z.boolean(),
    status: submissionStatusSchema,
    split: z.enum(["train", "dev", "test"]),
    track: z.enum(["open", "closed"]),
    originalName: z.string(),
    fileBytes: z.number().int().nonnegative(),
    fileSha256: z.string(),
    sampleCount: z.number().int().nonnegative(),
    createdAt: isoDate,
    startedAt: isoDate.nullable(),
    finishedAt: isoDate.nullable(),
    attempts: z.number().int().nonnegative(),
    failureKind: z.enum(["INVALID", "INTERNAL"]).nullable().describe("INVALID: the stored file does not validate (never retried); INTERNAL: the platform's fault"),
    failureReason: z.string().nullable().describe("why it failed, naming the lines for INVALID"),
    quota: z
      .object({
        state: z.enum(["free", "charged", "refunded"]).describe("free: never charged (a dev file, a baseline); charged: its latest test quota charge stands; refunded: that charge was given back"),
        reason: z.string().nullable().describe("why it was refunded or charged again, from the quota ledger (its owner and maintainers only; null otherwise)"),
      })
      .describe("what this submission cost its owner's test quota, from the quota ledger (GET /api/quota/ledger)"),
    isBaseline: z.boolean(),
    baselineLabel: z.string().nullable(),
    publication: publicationSchema,
    isPrimary: z.boolean().describe("the owner's primary entry of its track"),
    hiddenByOwner: z.boolean().describe("HIDDEN by its owner, who may show it again (a maintainer's hide needs a maintainer)"),
    systemName: z.string().nullable(),
    methodDescription: z.string().nullable(),
    factSheet: factSheetSchema.nullable().describe("the entry's fact sheet (version 1); null until publication is requested"),
    factSheetMissing: z.array(z.string()).describe("fact sheet answers still not stated (empty when complete)"),
    canEditFactSheet: z.boolean().describe("whether you may edit the fact sheet now: the owner until approval"),
    provenance: z.object({
      tier: z.enum(PROVENANCE_TIERS),
      reproducedAt: isoDate.nullable(),
      reproducedBy: z.string().nullable(),
    }),
    reviewReason: z.string().nullable(),
    identicalPublicEntry: z
      .object({ id: z.string(), system: z.string(), isBaseline: z.boolean() })
      .nullable()
      .describe("test files: another account's public entry (or a baseline) whose file is this one, byte for byte"),
    releaseName: z.string(),
    feedbackFraction: z.number().describe("the release's feedback_fraction: the share of its test split in the feedback slice (protocol section 12)"),
    disclosureLevel: z.enum(["full", "public", "owner"]),
    score: z
      .object({
        report: disclosedReportSchema,
        scorerVersion: z.string().describe("the platform scoring version the score was stored under; the scorer's own version is report.scorer_version"),
        goldVersion: z.string(),
        computedAt: isoDate,
        isStale: z.boolean(),
      })
      .nullable(),
    comparisons: z.array(disclosedComparisonSchema),
    hasSampleOutcomes: z.boolean(),
    visibility: z.object({ isPublic: z.boolean(), text: z.string() }),
    queuePosition: z
      .object({
        position: z.number().int().positive().describe("1: the next job a worker takes"),
        waiting: z.number().int().nonnegative().describe("jobs waiting, this one included"),
        beingScored: z.number().int().nonnegative().describe("jobs being scored now, ahead of every waiting one"),
      })
      .nullable()
      .describe("while QUEUED: its place among the waiting jobs; null otherwise, or when the queue cannot be read"),
    pageUrl: z.string().describe("the submission's page on the site (from the configured PUBLIC_URL)"),
    probe_flags: z.unknown().optional().describe("maintainers' browser sessions only"),
  }),
);

export const testQuotaSchema = component(
  "TestQuota",
  z.object({
    perDay: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    usedToday: z.number().int().nonnegative(),
    usedTotal: z.number().int().nonnegative(),
    remaining: z.number().int().nonnegative(),
    granted: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe("extra test submissions maintainers granted on this release, already counted in perDay (for 24 hours) and total"),
    nextFreeAt: isoDate.nullable().describe("when the oldest unrefunded test submission of the last 24 hours leaves the window"),
    dev: z
      .object({
        perHour: z.number().int().positive().describe("dev uploads allowed per rolling hour (DEV_UPLOADS_PER_HOUR)"),
        usedLastHour: z.number().int().nonnegative(),
        nextFreeAt: isoDate.nullable().describe("when the oldest dev upload of the last hour leaves the window; null when none"),
        bytesPerDay: z.number().int().positive().describe("bytes of dev files one may store per rolling 24 hours (DEV_UPLOAD_BYTES_PER_DAY)"),
        bytesUsedToday: z.number().int().nonnegative(),
      })
      .describe("dev submissions cost no test quota but are limited per participant"),
  }),
);

const QUOTA_ENTRY_KINDS = ["CHARGE", "REFUND", "GRANT"] as const;

/** GET /api/quota/ledger's query: which release's rows, and the page. */
export const quotaLedgerQuerySchema = z.strictObject({
  release: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(64, "must be a release id or all")
    .optional()
    .describe("a release id, or all for every release (default: the active release)"),
  before: z
    .string()
    .trim()
    .regex(/^[a-z0-9]{1,64}$/, "must be the nextBefore of the previous page")
    .optional()
    .describe("the previous answer's nextBefore: the rows older than it"),
});

/** GET /api/quota/ledger: every charge, refund and grant of the caller's test quota, newest first. */
export const quotaLedgerSchema = component(
  "QuotaLedger",
  z.object({
    releaseId: z.string().nullable().describe("the release whose rows these are (the active one unless ?release= says otherwise); null with release=all"),
    hasMore: z.boolean().describe("older rows exist than this answer holds (at most 500): ask again with before=nextBefore"),
    nextBefore: z.string().nullable().describe("the before= value of the next (older) page; null when this is the last"),
    entries: z.array(
      z.object({
        id: z.string(),
        releaseId: z.string(),
        releaseName: z.string().describe('the release the row belongs to, "name version"'),
        kind: z.enum(QUOTA_ENTRY_KINDS).describe("CHARGE: a test file passed pre-flight (or, with a reason, was charged again when a maintainer retried it after a refund); REFUND: a charge given back; GRANT: extra test submissions from a maintainer"),
        amount: z.number().int().describe("change of the used count: +1 a charge, -1 a refund, -n a grant of n"),
        createdAt: isoDate,
        countsInWindowFrom: isoDate.describe("where the row counts in the rolling 24-hour window: a refund counts where its charge did"),
        submissionId: z.string().nullable().describe("the charged or refunded test submission; null for a grant"),
        submissionName: z.string().nullable().describe("that submission's file name"),
        reason: z.string().nullable().describe("why a refund or grant was made (null for a plain charge)"),
        madeBy: z.enum(["upload", "platform", "maintainer"]).describe("upload: your upload; platform: an automatic refund; maintainer: a maintainer's grant or refund"),
      }),
    ),
  }),
);

export const publicationAcceptedSchema = component(
  "PublicationRequested",
  z.object({ id: z.string(), publication: z.literal("PENDING") }),
);

export const publicationWithdrawnSchema = component("PublicationWithdrawn", z.object({ id: z.string(), publication: z.literal("PRIVATE") }));

export const entryVisibilityChangedSchema = component("EntryVisibilityChanged", z.object({ id: z.string(), publication: z.enum(["PUBLISHED", "HIDDEN"]) }));

export const primaryEntryChangedSchema = component(
  "PrimaryEntryChanged",
  z.object({ id: z.string(), isPrimary: z.boolean(), replaced: z.string().nullable().describe("your former primary entry of the track, now unmarked") }),
);

export type SubmissionCreated = z.output<typeof submissionCreatedSchema>;
export type SubmissionSummaryBody = z.output<typeof submissionSummarySchema>;
export type SubmissionViewBody = z.output<typeof submissionViewSchema>;
export type TestQuotaBody = z.output<typeof testQuotaSchema>;
export type QuotaLedgerBody = z.output<typeof quotaLedgerSchema>;

export const factSheetSavedSchema = component(
  "FactSheetSaved",
  z.object({
    submissionId: z.string(),
    factSheet: factSheetSchema,
    isAudited: z.boolean().describe("true when a maintainer changed someone else's sheet (an audit-log row was written)"),
  }),
);
