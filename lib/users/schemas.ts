import { z } from "zod";
import { freeText } from "@/lib/validation/text";
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

const reasonSchema = freeText().trim().max(500, { error: "Keep the reason under 500 characters." }).optional();

export const roleChangeSchema = z.object({
  role: roleSchema,
  reason: reasonSchema,
});

/** Approval for test submissions (TEST_REQUIRES_APPROVAL=1). */
export const approvalChangeSchema = z.object({
  approved: z.boolean({ error: "approved must be true or false." }),
  reason: reasonSchema,
});

/** PATCH /api/admin/users/:id: a role change or an approval change, one per request. */
export const userAdminPatchSchema = z.union([roleChangeSchema.strict(), approvalChangeSchema.strict()], {
  error: "Send {role, reason?} or {approved, reason?}.",
});

export type ProfileInput = z.infer<typeof profileSchema>;
export type ProfilePatch = z.infer<typeof profilePatchSchema>;
export type RoleChangeInput = z.infer<typeof roleChangeSchema>;
export type UserAdminPatch = z.infer<typeof userAdminPatchSchema>;
