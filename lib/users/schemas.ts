import { z } from "zod";
import { affiliationSchema, displayNameSchema } from "@/lib/auth/schemas";

export const ROLES = ["PARTICIPANT", "MAINTAINER"] as const;
export const roleSchema = z.enum(ROLES, { error: "Role must be PARTICIPANT or MAINTAINER." });

/** Profile fields a user edits on /account and with PATCH /api/me. */
export const profileSchema = z.object({
  displayName: displayNameSchema,
  affiliation: affiliationSchema.default(""),
});

/** A partial update for PATCH /api/me: omitted fields stay as they are. */
export const profilePatchSchema = z
  .object({ displayName: displayNameSchema.optional(), affiliation: affiliationSchema.optional() })
  .strict()
  .refine((value) => value.displayName !== undefined || value.affiliation !== undefined, {
    error: "Send displayName, affiliation or both.",
  });

export const roleChangeSchema = z.object({
  role: roleSchema,
  reason: z.string().trim().max(500, { error: "Keep the reason under 500 characters." }).optional(),
});

export type ProfileInput = z.infer<typeof profileSchema>;
export type ProfilePatch = z.infer<typeof profilePatchSchema>;
export type RoleChangeInput = z.infer<typeof roleChangeSchema>;
