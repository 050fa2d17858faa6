"use client";

import { useActionState } from "react";
import { BUTTON_CLASS, FormField, FormMessage, SECONDARY_BUTTON_CLASS } from "@/components/auth/form-field";
import { IDLE_FORM_STATE, type FormState } from "@/lib/core/accounts/form-state";

type SupersedeFormProps = {
  action: (state: FormState, formData: FormData) => Promise<FormState>;
  version: string;
  /** Versions that may supersede this one. */
  candidates: string[];
  supersededBy: string | null;
};

/** Maintainers: mark a release superseded by another one, or take the mark back. Both go to the audit log. */
export function SupersedeForm({ action, version, candidates, supersededBy }: SupersedeFormProps) {
  const [state, formAction, isPending] = useActionState(action, IDLE_FORM_STATE);
  const [restoreState, restoreAction, isRestoring] = useActionState(action, IDLE_FORM_STATE);
  return (
    <div className="space-y-4">
      <form action={formAction} className="max-w-xl space-y-3" aria-label="Mark this release superseded">
        <input type="hidden" name="version" value={version} />
        <input type="hidden" name="action" value="supersede" />
        <div className="space-y-1">
          <label htmlFor="supersededBy" className="block text-sm font-medium">
            Superseded by
          </label>
          <select id="supersededBy" name="supersededBy" defaultValue={state.values?.supersededBy ?? candidates[0] ?? ""} className="w-full rounded border border-line px-3 py-2">
            {candidates.map((candidate) => (
              <option key={candidate} value={candidate}>
                {candidate}
              </option>
            ))}
          </select>
          {state.fieldErrors?.supersededBy && <p className="text-sm text-red-800">{state.fieldErrors.supersededBy}</p>}
        </div>
        <FormField id="supersede-reason" name="reason" label="Reason (audit log)" defaultValue={state.values?.reason ?? ""} error={state.fieldErrors?.reason} required />
        <button type="submit" className={BUTTON_CLASS} disabled={isPending || candidates.length === 0}>
          {isPending ? "Saving…" : "Mark superseded"}
        </button>
        <FormMessage status={state.status} message={state.message} />
      </form>
      {supersededBy !== null && (
        <form action={restoreAction} className="space-y-2" aria-label="Take back the superseded mark">
          <input type="hidden" name="version" value={version} />
          <input type="hidden" name="action" value="restore" />
          <button type="submit" className={SECONDARY_BUTTON_CLASS} disabled={isRestoring}>
            {isRestoring ? "Saving…" : `Take back "superseded by ${supersededBy}"`}
          </button>
          <FormMessage status={restoreState.status} message={restoreState.message} />
        </form>
      )}
    </div>
  );
}
