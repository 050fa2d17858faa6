"use server";

import { getActor } from "@/lib/domain/accounts/get-actor";
import { formText, type FormState } from "@/lib/core/accounts/form-state";
import { formStateFromError } from "@/lib/domain/accounts/form-state-from-error";
import { retrySubmission } from "@/lib/domain/scoring/retry-submission";
import { retryRequestSchema } from "@/lib/core/submissions/schemas";

export async function retrySubmissionAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const values = { submissionId: formText(formData, "submissionId"), reason: formText(formData, "reason") };
  const parsed = retryRequestSchema.safeParse(values);
  if (!parsed.success) return { status: "error", message: parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "), values };
  try {
    const result = await retrySubmission(await getActor(), parsed.data.submissionId, parsed.data.reason);
    // No revalidation: the row stays with this message until the page is reloaded, instead of vanishing under the click.
    return {
      status: "success",
      message:
        (result.isQueued ? "Queued for scoring again; reload to follow it under Jobs." : "Marked for scoring again; Redis is unreachable, so the worker's reconciler will queue it once it answers.") +
        (result.isChargedAgain ? " Its test quota charge had been refunded, so it was charged again (the owner's ledger says why)." : ""),
    };
  } catch (error) {
    return formStateFromError(error, values);
  }
}
