import { z } from "zod";
import { freeText } from "@/lib/core/text";
import { affiliationSchema, displayNameSchema } from "@/lib/core/accounts/auth-schemas";

const ROLES = ["PARTICIPANT", "MAINTAINER"] as const;
const roleSchema = z.enum(ROLES, { error: "Role must be PARTICIPANT or MAINTAINER." });

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

/** Approval for test submissions (needed on releases of 1,000 test samples or more by default: lib/domain/accounts/test-approval.ts). */
export const approvalChangeSchema = z.object({
  approved: z.boolean({ error: "approved must be true or false." }),
  reason: reasonSchema,
});

/** PATCH /api/admin/users/:id: a role change or an approval change, one per request. */
export const userAdminPatchSchema = z.union([roleChangeSchema.strict(), approvalChangeSchema.strict()], {
  error: "Send {role, reason?} or {approved, reason?}.",
});

export type ProfilePatch = z.infer<typeof profilePatchSchema>;

const quotaReasonSchema = freeText()
  .trim()
  .min(1, { error: "Say why (the participant reads it on their quota ledger)." })
  .max(500, { error: "Keep the reason under 500 characters." });

/** A maintainer's change of a participant's test quota (/admin/users/:id, POST /api/admin/users/:id/quota). */
export const quotaAdjustmentSchema = z.discriminatedUnion(
  "action",
  [
    z
      .object({
        action: z.literal("grant"),
        amount: z.coerce
          .number({ error: "amount must be a whole number from 1 to 100." })
          .int({ error: "amount must be a whole number from 1 to 100." })
          .min(1, { error: "amount must be a whole number from 1 to 100." })
          .max(100, { error: "amount must be a whole number from 1 to 100." }),
        reason: quotaReasonSchema,
      })
      .strict(),
    z.object({ action: z.literal("refund"), submissionId: z.string().min(1).max(64), reason: quotaReasonSchema }).strict(),
  ],
  { error: 'Send {action: "grant", amount, reason} or {action: "refund", submissionId, reason}.' },
);
export type QuotaAdjustment = z.infer<typeof quotaAdjustmentSchema>;

const budgetReasonSchema = freeText()
  .trim()
  .min(1, { error: "Say why these accounts are one person or lab (kept in the audit log)." })
  .max(500, { error: "Keep the reason under 500 characters." });

/**
 * Protocol §12: a maintainer links approved accounts of one person or lab into one entries budget
 * (/admin/users/:id, POST /api/admin/users/:id/budget-group), or takes an account out of its group.
 */
export const budgetGroupChangeSchema = z.discriminatedUnion(
  "action",
  [
    z
      .object({
        action: z.literal("link"),
        account: freeText().trim().min(1, { error: "Name the other account by its email or id." }).max(320, { error: "Name the other account by its email or id." }),
        reason: budgetReasonSchema,
      })
      .strict(),
    z.object({ action: z.literal("unlink"), reason: budgetReasonSchema }).strict(),
  ],
  { error: 'Send {action: "link", account, reason} or {action: "unlink", reason}.' },
);
export type BudgetGroupChange = z.infer<typeof budgetGroupChangeSchema>;
