"use client";

import { useActionState, useState } from "react";
import { BUTTON_CLASS, SECONDARY_BUTTON_CLASS } from "@/components/auth/form-field";
import { IDLE_FORM_STATE, type FormState } from "@/lib/core/accounts/form-state";

type RetrySubmissionFormProps = {
  action: (state: FormState, formData: FormData) => Promise<FormState>;
  submissionId: string;
};

/** "Retry", then a confirmation with an optional reason for the audit log, then the server action. */
export function RetrySubmissionForm({ action, submissionId }: RetrySubmissionFormProps) {
  const [state, formAction, isPending] = useActionState(action, IDLE_FORM_STATE);
  const [isConfirming, setIsConfirming] = useState(false);
  const reasonId = `retry-reason-${submissionId}`;
  if (state.status === "success") {
    return (
      <span role="status" className="text-sm text-green-900">
        {state.message}
      </span>
    );
  }
  return (
    <div className="space-y-1">
      {!isConfirming ? (
        <button type="button" className={SECONDARY_BUTTON_CLASS} onClick={() => setIsConfirming(true)} aria-label={`Retry ${submissionId}`}>
          Retry
        </button>
      ) : (
        <form action={formAction} className="flex flex-wrap items-center gap-2" aria-label={`Confirm the retry of ${submissionId}`}>
          <input type="hidden" name="submissionId" value={submissionId} />
          <span className="text-sm">Score {submissionId} again, with its attempts counted from 0?</span>
          <label htmlFor={reasonId} className="sr-only">
            Reason for the audit log
          </label>
          <input
            id={reasonId}
            name="reason"
            placeholder="Reason (audit log, optional)"
            maxLength={500}
            defaultValue={state.values?.reason}
            className="w-48 rounded border border-line px-2 py-1 text-sm"
          />
          <button type="submit" className={BUTTON_CLASS} disabled={isPending}>
            {isPending ? "Retrying…" : "Confirm retry"}
          </button>
          <button type="button" className={SECONDARY_BUTTON_CLASS} disabled={isPending} onClick={() => setIsConfirming(false)}>
            Cancel
          </button>
        </form>
      )}
      {state.status === "error" && (
        <span role="alert" className="text-sm text-red-800">
          {state.message}
        </span>
      )}
    </div>
  );
}
