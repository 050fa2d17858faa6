"use client";

import { useActionState } from "react";
import { SECONDARY_BUTTON_CLASS } from "@/components/auth/form-field";
import { IDLE_FORM_STATE, type FormState } from "@/lib/core/accounts/form-state";

type BudgetGroupFormProps = {
  action: (state: FormState, formData: FormData) => Promise<FormState>;
  userId: string;
  /** "link": name another account; "unlink": take this one out of its group. */
  mode: "link" | "unlink";
};

/** A maintainer links approved accounts of one person or lab into one entries budget, or takes one out (protocol §12); the reason goes to the audit log. */
export function BudgetGroupForm({ action, userId, mode }: BudgetGroupFormProps) {
  const [state, formAction, isPending] = useActionState(action, IDLE_FORM_STATE);
  const error = state.fieldErrors?.account ?? state.fieldErrors?.reason;
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-2" data-testid={`budget-${mode}-form`}>
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="action" value={mode} />
      {mode === "link" && (
        <div className="space-y-1">
          <label htmlFor={`budget-${mode}-account`} className="block text-sm font-medium">
            Other account (email or id)
          </label>
          <input id={`budget-${mode}-account`} name="account" required maxLength={320} defaultValue={state.values?.account} className="w-64 rounded border border-line px-2 py-1 text-sm" />
        </div>
      )}
      <div className="space-y-1">
        <label htmlFor={`budget-${mode}-reason`} className="block text-sm font-medium">
          Reason (kept in the audit log)
        </label>
        <input id={`budget-${mode}-reason`} name="reason" required maxLength={500} defaultValue={state.values?.reason} className="w-64 rounded border border-line px-2 py-1 text-sm" />
      </div>
      <button type="submit" className={SECONDARY_BUTTON_CLASS} disabled={isPending}>
        {isPending ? "Saving…" : mode === "link" ? "Share one entries budget" : "Take out of the shared budget"}
      </button>
      {(state.message || error) && (
        <span role={state.status === "error" ? "alert" : "status"} className={`text-sm ${state.status === "error" ? "text-red-800" : "text-green-900"}`}>
          {error ?? state.message}
        </span>
      )}
    </form>
  );
}
