"use client";

import { useActionState, useEffect, useRef } from "react";
import { BUTTON_CLASS } from "@/components/auth/form-field";
import { IDLE_FORM_STATE, type FormState } from "@/lib/core/accounts/form-state";

export type WaitingAccount = { id: string; displayName: string; email: string; affiliation: string; joined: string };

type QuickApproveListProps = {
  action: (state: FormState, formData: FormData) => Promise<FormState>;
  /** Accounts waiting for approval, oldest first. */
  accounts: WaitingAccount[];
};

/**
 * Accounts waiting for approval, each approved with one click. After a click
 * the confirmation is announced (role="status") and focus moves to the next
 * account's button, the one that took the approved row's place, or to the
 * confirmation when none is left: never lost to the top of the page.
 */
export function QuickApproveList({ action, accounts }: QuickApproveListProps) {
  const [state, formAction, isPending] = useActionState(action, IDLE_FORM_STATE);
  const listRef = useRef<HTMLUListElement>(null);
  const confirmationRef = useRef<HTMLParagraphElement>(null);
  const focusIndexRef = useRef<number | null>(null);

  useEffect(() => {
    const index = focusIndexRef.current;
    if (index === null || isPending || state.status === "idle") return;
    focusIndexRef.current = null;
    const buttons = listRef.current?.querySelectorAll<HTMLButtonElement>('button[data-approve="true"]') ?? [];
    const next = buttons[Math.min(index, buttons.length - 1)];
    if (state.status === "success" && next) next.focus();
    else confirmationRef.current?.focus();
  }, [state, isPending, accounts]);

  return (
    <div className="space-y-3">
      <p
        ref={confirmationRef}
        tabIndex={-1}
        role={state.status === "error" ? "alert" : "status"}
        data-testid="approval-confirmation"
        className={state.status === "error" ? "font-medium text-red-800" : "font-medium text-green-900"}
      >
        {state.message ?? ""}
      </p>
      {accounts.length === 0 ? (
        <p data-testid="no-waiting-accounts">No account is waiting for approval.</p>
      ) : (
        <ul ref={listRef} className="divide-y divide-line rounded border border-line bg-white" aria-label="Accounts waiting for approval">
          {accounts.map((account, index) => (
            <li key={account.id} className="flex flex-wrap items-center justify-between gap-3 p-3" data-testid="waiting-account">
              <div className="min-w-0">
                <p className="font-medium">{account.displayName}</p>
                <p className="break-words text-sm text-muted">
                  {account.email}
                  {account.affiliation ? ` · ${account.affiliation}` : ""} · joined {account.joined}
                </p>
              </div>
              <form
                action={(formData) => {
                  focusIndexRef.current = index;
                  formAction(formData);
                }}
              >
                <input type="hidden" name="userId" value={account.id} />
                <input type="hidden" name="approved" value="true" />
                <input type="hidden" name="displayName" value={account.displayName} />
                <button type="submit" data-approve="true" className={BUTTON_CLASS} disabled={isPending} aria-label={`Approve ${account.displayName}`}>
                  Approve
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
