"use client";

import { useActionState } from "react";
import { SECONDARY_BUTTON_CLASS } from "@/components/auth/form-field";
import { IDLE_FORM_STATE, type FormState } from "@/lib/core/accounts/form-state";

type RoleChangeFormProps = {
  action: (state: FormState, formData: FormData) => Promise<FormState>;
  userId: string;
  displayName: string;
  targetRole: "PARTICIPANT" | "MAINTAINER";
};

export function RoleChangeForm({ action, userId, displayName, targetRole }: RoleChangeFormProps) {
  const [state, formAction, isPending] = useActionState(action, IDLE_FORM_STATE);
  const verb = targetRole === "MAINTAINER" ? "Make maintainer" : "Make participant";
  const reasonId = `reason-${userId}`;
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="role" value={targetRole} />
      <label htmlFor={reasonId} className="sr-only">
        Reason for changing the role of {displayName}
      </label>
      <input
        id={reasonId}
        name="reason"
        placeholder="Reason (optional)"
        maxLength={500}
        defaultValue={state.values?.reason}
        className="w-40 rounded border border-line px-2 py-1 text-sm"
      />
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
