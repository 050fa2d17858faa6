"use client";

import { useActionState } from "react";
import { SECONDARY_BUTTON_CLASS } from "@/components/auth/form-field";
import { IDLE_FORM_STATE, type FormState } from "@/lib/core/accounts/form-state";

type QuotaAdjustmentFormProps = {
  action: (state: FormState, formData: FormData) => Promise<FormState>;
  userId: string;
  /** "grant": extra test submissions; "refund": give back this submission's charge. */
  mode: { kind: "grant" } | { kind: "refund"; submissionId: string; submissionName: string };
};

/** A maintainer's grant or refund of a participant's test quota; the reason is required (the participant reads it). */
export function QuotaAdjustmentForm({ action, userId, mode }: QuotaAdjustmentFormProps) {
  const [state, formAction, isPending] = useActionState(action, IDLE_FORM_STATE);
  const key = mode.kind === "grant" ? "grant" : `refund-${mode.submissionId}`;
  const reasonError = state.fieldErrors?.reason;
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="action" value={mode.kind} />
      {mode.kind === "refund" && <input type="hidden" name="submissionId" value={mode.submissionId} />}
      {mode.kind === "grant" && (
        <div className="space-y-1">
          <label htmlFor={`${key}-amount`} className="block text-sm font-medium">
            Extra test submissions
          </label>
          <input id={`${key}-amount`} name="amount" type="number" min={1} max={100} defaultValue={state.values?.amount ?? "1"} required className="w-24 rounded border border-line px-2 py-1" />
        </div>
      )}
      <div className="space-y-1">
        <label htmlFor={`${key}-reason`} className={mode.kind === "grant" ? "block text-sm font-medium" : "sr-only"}>
          {mode.kind === "grant" ? "Reason (the participant reads it)" : `Reason for refunding ${mode.submissionName}`}
        </label>
        <input
          id={`${key}-reason`}
          name="reason"
          required
          maxLength={500}
          placeholder={mode.kind === "refund" ? "Reason" : undefined}
          defaultValue={state.values?.reason}
          aria-invalid={reasonError ? true : undefined}
          className="w-56 rounded border border-line px-2 py-1 text-sm"
        />
      </div>
      <button type="submit" className={SECONDARY_BUTTON_CLASS} disabled={isPending} aria-label={mode.kind === "grant" ? "Grant" : `Refund ${mode.submissionName}`}>
        {isPending ? "Saving…" : mode.kind === "grant" ? "Grant" : "Refund"}
      </button>
      {(state.message || reasonError) && (
        <span role={state.status === "error" ? "alert" : "status"} className={`text-sm ${state.status === "error" ? "text-red-800" : "text-green-900"}`}>
          {reasonError ?? state.message}
        </span>
      )}
    </form>
  );
}
