import { z } from "zod";
import { freeText } from "@/lib/core/text";
import { PROBE_FLAG_IDS, probeFlagIdSchema } from "@/lib/core/integrity/probe-flags-schema";
import { factSheetSchema } from "@/lib/core/fact-sheet/schema";

/** Shapes of submission inputs, shared by the upload form, the API and the server. */
export const declaredSplitSchema = z.enum(["dev", "test"]);
export const declaredTrackSchema = z.enum(["open", "closed"]);

export const uploadFieldsSchema = z.object({
  split: declaredSplitSchema.optional(),
  track: declaredTrackSchema.optional(),
});
export type UploadFields = z.infer<typeof uploadFieldsSchema>;

/** The Idempotency-Key header of an upload: 1-255 visible ASCII characters (a UUID is a good key). */
export const idempotencyKeySchema = z
  .string()
  .min(1, "must not be empty")
  .max(255, "must be at most 255 characters")
  .regex(/^[\x21-\x7e]+$/, "must be visible ASCII characters without spaces (a UUID is a good key)");

/**
 * A publication request (POST /api/submissions/:id/publication): the method in
 * words and the entry's fact sheet (lib/core/fact-sheet/schema.ts), whose problems
 * are named by their path ("factSheet.dataUsed.train").
 */
export const publicationRequestSchema = z
  .object({
    methodDescription: freeText().trim().min(20, "describe the method in at least 20 characters").max(5000, "at most 5,000 characters"),
    factSheet: factSheetSchema,
  })
  .strict();

/** An edit of the fact sheet (PUT /api/submissions/:id/fact-sheet); a maintainer's edit of an approved entry gives a reason for the audit log. */
export const factSheetEditSchema = z
  .object({
    factSheet: factSheetSchema,
    reason: freeText().trim().max(500, "must be at most 500 characters").optional(),
  })
  .strict();

export const BASELINE_LABEL_MAX = 80;
/** Approving a file with raised probe flags needs a reason at least this long (it goes to the audit log). */
export const FLAGGED_REASON_MIN = 5;

/** A rejection's reason, read by the owner, has at least this many characters. */
export const REJECT_REASON_MIN = 5;

const REVIEW_ACTIONS = ["approve", "reject", "hide", "rescore", "mark-baseline", "unmark-baseline"] as const;
export const reviewActionSchema = z
  .object({
    action: z.enum(REVIEW_ACTIONS),
    reason: freeText().trim().max(2000).optional(),
    /** The public name of a baseline, typed by the maintainer (never the file name). */
    baselineLabel: freeText().trim().min(1, "must not be empty").max(BASELINE_LABEL_MAX, `at most ${BASELINE_LABEL_MAX} characters`).optional(),
    /** Raised probe flags the maintainer has looked at (docs/integrity.md); needed to approve or mark a flagged test file. */
    acknowledge: z.array(probeFlagIdSchema).max(PROBE_FLAG_IDS.length).optional(),
  })
  .refine((value) => value.action !== "reject" || (value.reason?.length ?? 0) >= REJECT_REASON_MIN, {
    message: `a rejection needs a reason the owner will read (at least ${REJECT_REASON_MIN} characters)`,
    path: ["reason"],
  })
  .refine((value) => value.action !== "mark-baseline" || value.baselineLabel !== undefined, {
    message: "a baseline needs a label, the name it is shown under on the leaderboard",
    path: ["baselineLabel"],
  });
export type ReviewAction = z.infer<typeof reviewActionSchema>;

/** The owner's controls over a published entry: PUT /api/submissions/:id/visibility and /primary. */
export const entryVisibilitySchema = z.object({ hidden: z.boolean() }).strict();
export const primaryEntrySchema = z.object({ isPrimary: z.boolean() }).strict();

/** A maintainer's retry of a failed submission (/admin/queue). */
export const retryRequestSchema = z.object({
  submissionId: z.string().trim().min(1, "is missing").max(64, "is too long").regex(/^[a-z0-9]+$/, "is not a submission id"),
  reason: z.string().trim().max(500, "must be at most 500 characters").optional(),
});
