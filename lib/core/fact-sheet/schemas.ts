import { z } from "zod";
import { freeText, recordIdSchema } from "@/lib/core/text";

/** A maintainer's reproduction check: the scored test submission holding the re-run's predictions. */
export const reproductionCheckSchema = z
  .object({
    reproductionId: recordIdSchema,
    reason: freeText().trim().max(500, "must be at most 500 characters").optional(),
  })
  .strict();

const REVOKE_REASON_MIN = 5;

/** Taking the "reproduced" tier away again needs a reason for the audit log. */
export const reproductionRevokeSchema = z
  .object({
    reason: freeText().trim().min(REVOKE_REASON_MIN, `must say why (at least ${REVOKE_REASON_MIN} characters; it goes to the audit log)`).max(500, "must be at most 500 characters"),
  })
  .strict();
