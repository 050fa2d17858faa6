"use client";

import { useActionState } from "react";
import { BUTTON_CLASS, FormField, FormMessage } from "@/components/auth/form-field";
import type { FormState } from "@/lib/core/accounts/form-state";

type ProfileFormProps = {
  action: (state: FormState, formData: FormData) => Promise<FormState>;
  displayName: string;
  affiliation: string;
};

export function ProfileForm({ action, displayName, affiliation }: ProfileFormProps) {
  const [state, formAction, isPending] = useActionState(action, { status: "idle", values: { displayName, affiliation } });
  const errors = state.fieldErrors ?? {};
  const values = state.values ?? {};
  return (
    <form action={formAction} className="max-w-md space-y-4" noValidate>
      <FormMessage status={state.status} message={state.message} />
      <FormField id="displayName" name="displayName" label="Display name" autoComplete="name" required defaultValue={values.displayName} error={errors.displayName} hint="Shown on the leaderboard next to your entries." />
      <FormField id="affiliation" name="affiliation" label="Affiliation" autoComplete="organization" defaultValue={values.affiliation} error={errors.affiliation} hint="Optional; shown with your display name." />
      <button type="submit" className={BUTTON_CLASS} disabled={isPending}>
        {isPending ? "Saving…" : "Save profile"}
      </button>
    </form>
  );
}
