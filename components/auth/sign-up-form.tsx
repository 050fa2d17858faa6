"use client";

import { useActionState } from "react";
import { BUTTON_CLASS, FormField, FormMessage } from "@/components/auth/form-field";
import { PASSWORD_MIN_LENGTH } from "@/lib/core/accounts/auth-schemas";
import { IDLE_FORM_STATE, type FormState } from "@/lib/core/accounts/form-state";

type SignUpFormProps = { action: (state: FormState, formData: FormData) => Promise<FormState> };

export function SignUpForm({ action }: SignUpFormProps) {
  const [state, formAction, isPending] = useActionState(action, IDLE_FORM_STATE);
  const errors = state.fieldErrors ?? {};
  const values = state.values ?? {};
  return (
    <form action={formAction} className="space-y-4" noValidate>
      <FormMessage status={state.status} message={state.message} />
      <FormField id="email" name="email" type="email" label="Email" autoComplete="email" required defaultValue={values.email} error={errors.email} hint="Private: only you and the maintainers see it." />
      <FormField
        id="password"
        name="password"
        type="password"
        label="Password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        error={errors.password}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
      />
      <FormField id="displayName" name="displayName" label="Display name" autoComplete="name" required defaultValue={values.displayName} error={errors.displayName} hint="Shown on the leaderboard next to your entries." />
      <FormField id="affiliation" name="affiliation" label="Affiliation (optional)" autoComplete="organization" defaultValue={values.affiliation} error={errors.affiliation} />
      <button type="submit" className={BUTTON_CLASS} disabled={isPending}>
        {isPending ? "Creating account…" : "Create account"}
      </button>
    </form>
  );
}
