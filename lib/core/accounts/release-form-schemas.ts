import { z } from "zod";
import { freeText } from "@/lib/core/text";

/** A release version as it appears in addresses (/dataset/releases/1.0, ?release=1.0). */
export const releaseVersionSchema = freeText()
  .trim()
  .min(1, { error: "Give a release version." })
  .max(64, { error: "A release version is at most 64 characters." });

/** The maintainer's form on a release page: mark it superseded by another release, or take the mark back. */
export const supersedeReleaseSchema = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("supersede"),
    supersededBy: releaseVersionSchema,
    reason: freeText().trim().min(1, { error: "Say why (readers see the successor; the reason goes to the audit log)." }).max(500, { error: "Keep the reason under 500 characters." }),
  }),
  z.object({ action: z.literal("restore"), reason: freeText().trim().max(500, { error: "Keep the reason under 500 characters." }).optional() }),
], { error: "action must be supersede or restore." });
export type SupersedeReleaseInput = z.infer<typeof supersedeReleaseSchema>;
