"use client";

import { useActionState } from "react";
import { SECONDARY_BUTTON_CLASS } from "@/components/auth/form-field";
import { IDLE_FORM_STATE, type FormState } from "@/lib/core/accounts/form-state";

type RevokeTokenFormProps = {
  action: (state: FormState, formData: FormData) => Promise<FormState>;
  tokenId: string;
  tokenName: string;
};

export function RevokeTokenForm({ action, tokenId, tokenName }: RevokeTokenFormProps) {
  const [state, formAction, isPending] = useActionState(action, IDLE_FORM_STATE);
  return (
    <form action={formAction} className="flex items-center gap-2">
      <input type="hidden" name="tokenId" value={tokenId} />
      <button type="submit" className={SECONDARY_BUTTON_CLASS} disabled={isPending} aria-label={`Revoke token ${tokenName}`}>
        {isPending ? "Revoking…" : "Revoke"}
      </button>
      {state.status === "error" && (
        <span role="alert" className="text-sm text-red-800">
          {state.message}
        </span>
      )}
    </form>
  );
}
