"use client";

import { useActionState } from "react";
import { SECONDARY_BUTTON_CLASS } from "@/components/auth/form-field";
import { IDLE_FORM_STATE, type FormState } from "@/lib/core/accounts/form-state";

type ApprovalFormProps = {
  action: (state: FormState, formData: FormData) => Promise<FormState>;
  userId: string;
  displayName: string;
  /** What the button does: approve (true) or take the approval back (false). */
  approve: boolean;
};

/** Approve an account for test submissions, or take the approval back (needed on releases of 1,000 test samples or more by default: lib/domain/accounts/test-approval.ts). */
export function ApprovalForm({ action, userId, displayName, approve }: ApprovalFormProps) {
  const [state, formAction, isPending] = useActionState(action, IDLE_FORM_STATE);
  const verb = approve ? "Approve" : "Revoke approval";
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="approved" value={approve ? "true" : "false"} />
      <button type="submit" className={SECONDARY_BUTTON_CLASS} disabled={isPending} aria-label={`${verb}: ${displayName}`}>
        {isPending ? "Saving…" : verb}
      </button>
      {state.message && (
        <span role={state.status === "error" ? "alert" : "status"} className={`text-sm ${state.status === "error" ? "text-red-800" : "text-green-900"}`}>
          {state.message}
        </span>
      )}
    </form>
  );
}
