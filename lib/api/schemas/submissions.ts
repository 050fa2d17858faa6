import { z } from "zod";
import { declaredSplitSchema, declaredTrackSchema } from "@/lib/submissions/schemas";
import { component } from "./registry";
import { disclosedComparisonSchema, disclosedReportSchema } from "./scores";

/** Bodies of the submission routes (POST/GET /api/submissions, /api/submissions/{id}, /api/quota). */

export const SUBMISSION_STATUSES = ["QUEUED", "SCORING", "SCORED", "FAILED"] as const;
export const submissionStatusSchema = z.enum(SUBMISSION_STATUSES);
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

export const submissionSummarySchema = component(
  "SubmissionSummary",
  z.object({
    id: z.string(),
    originalName: z.string(),
    split: z.string(),
    track: z.string(),
    status: z.string(),
    publication: z.string(),
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
    countsToQuota: z.boolean(),
    isBaseline: z.boolean(),
    baselineLabel: z.string().nullable(),
    publication: publicationSchema,
    systemName: z.string().nullable(),
    methodDescription: z.string().nullable(),
    paperUrl: z.string().nullable(),
    codeUrl: z.string().nullable(),
    parameterCount: z.string().nullable(),
    isOpenWeights: z.boolean().nullable(),
    externalData: z.string().nullable(),
    reviewReason: z.string().nullable(),
    releaseName: z.string(),
    disclosureLevel: z.enum(["full", "public", "owner"]),
    score: z
      .object({
        report: disclosedReportSchema,
        scorerVersion: z.string(),
        goldVersion: z.string(),
        computedAt: isoDate,
        isStale: z.boolean(),
      })
      .nullable(),
    comparisons: z.array(disclosedComparisonSchema),
    hasSampleOutcomes: z.boolean(),
    visibility: z.object({ isPublic: z.boolean(), text: z.string() }),
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
    nextFreeAt: isoDate.nullable().describe("when the oldest test submission of the last 24 hours leaves the window"),
  }),
);

export const publicationAcceptedSchema = component(
  "PublicationRequested",
  z.object({ id: z.string(), publication: z.literal("PENDING") }),
);

export type SubmissionCreated = z.output<typeof submissionCreatedSchema>;
export type SubmissionSummaryBody = z.output<typeof submissionSummarySchema>;
export type SubmissionViewBody = z.output<typeof submissionViewSchema>;
export type TestQuotaBody = z.output<typeof testQuotaSchema>;
