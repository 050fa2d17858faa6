"use client";

import { useActionState, useState } from "react";
import { BUTTON_CLASS, FormField, FormMessage, SECONDARY_BUTTON_CLASS } from "@/components/auth/form-field";
import { useIsHydrated } from "@/components/auth/use-is-hydrated";
import { MAX_TOKEN_EXPIRY_DAYS } from "@/lib/core/accounts/token-schemas";
import type { CreateTokenState } from "@/app/account/tokens/actions";

type CreateTokenFormProps = { action: (state: CreateTokenState, formData: FormData) => Promise<CreateTokenState> };

function NewToken({ token }: { token: string }) {
  const [copyMessage, setCopyMessage] = useState("");
  const isHydrated = useIsHydrated();
  async function copy() {
    try {
      await navigator.clipboard.writeText(token);
      setCopyMessage("Copied to the clipboard.");
    } catch {
      setCopyMessage("Copying is blocked here; select the token and copy it by hand.");
    }
  }
  return (
    <div className="space-y-2 rounded border border-amber-300 bg-amber-50 p-4">
      <label htmlFor="new-token" className="block font-medium">
        Your new API token
      </label>
      <input id="new-token" readOnly value={token} className="w-full rounded border border-line bg-white px-3 py-2 font-mono text-sm" />
      <div className="flex items-center gap-3">
        <button type="button" className={SECONDARY_BUTTON_CLASS} disabled={!isHydrated} onClick={() => void copy()}>
          Copy token
        </button>
        <span role="status" className="text-sm text-muted">
          {copyMessage}
        </span>
      </div>
    </div>
  );
}

export function CreateTokenForm({ action }: CreateTokenFormProps) {
  const [state, formAction, isPending] = useActionState(action, { status: "idle" });
  const errors = state.fieldErrors ?? {};
  const values = state.values ?? {};
  return (
    <div className="space-y-4">
      <FormMessage status={state.status} message={state.message} />
      {state.token && <NewToken token={state.token} />}
      <form action={formAction} className="max-w-md space-y-4" noValidate>
        <FormField id="token-name" name="name" label="Token name" required maxLength={60} defaultValue={values.name} error={errors.name} hint="Something that tells you where it is used, like “lab workstation”." />
        <FormField
          id="token-expiry"
          name="expiresInDays"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_TOKEN_EXPIRY_DAYS}
          label="Expires after (days, optional)"
          defaultValue={values.expiresInDays}
          error={errors.expiresInDays}
          hint={`1 to ${MAX_TOKEN_EXPIRY_DAYS}; leave empty for a token that does not expire.`}
        />
        <button type="submit" className={BUTTON_CLASS} disabled={isPending}>
          {isPending ? "Creating…" : "Create token"}
        </button>
      </form>
    </div>
  );
}
