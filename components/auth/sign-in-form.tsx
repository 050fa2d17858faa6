"use client";

import { signIn } from "next-auth/react";
import { useRef, useState, type FormEvent } from "react";
import { BUTTON_CLASS, FormField, FormMessage, SECONDARY_BUTTON_CLASS } from "@/components/auth/form-field";
import { useIsHydrated } from "@/components/auth/use-is-hydrated";
import { signInErrorMessage } from "@/lib/core/accounts/sign-in-errors";

type SignInFormProps = {
  callbackUrl: string;
  /** The address just typed on sign-up, so the person types only the password. */
  defaultEmail?: string;
  initialError: string | null;
  isGithubEnabled: boolean;
};

export function SignInForm({ callbackUrl, defaultEmail, initialError, isGithubEnabled }: SignInFormProps) {
  const [error, setError] = useState<string | null>(initialError);
  const [isPending, setIsPending] = useState(false);
  const errorRef = useRef<HTMLDivElement>(null);
  const isHydrated = useIsHydrated();

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setIsPending(true);
    setError(null);
    try {
      const result = await signIn("credentials", {
        redirect: false,
        email: String(data.get("email") ?? ""),
        password: String(data.get("password") ?? ""),
        callbackUrl,
      });
      if (result?.ok && !result.error) {
        // A full load, so the header and every server component see the new session.
        window.location.assign(callbackUrl);
        return;
      }
      setError(signInErrorMessage(result?.error ?? "Callback"));
    } catch {
      setError("Could not reach the server. Check your connection and try again.");
    }
    setIsPending(false);
    errorRef.current?.focus();
  }

  return (
    <div className="space-y-6">
      {/* method="post": without JavaScript the password must never land in a URL */}
      <form method="post" onSubmit={handleSubmit} className="space-y-4" noValidate aria-describedby={error ? "sign-in-error" : undefined}>
        <div ref={errorRef} tabIndex={-1}>
          <FormMessage status="error" message={error ?? undefined} id="sign-in-error" />
        </div>
        <FormField id="email" name="email" type="email" label="Email" autoComplete="email" required defaultValue={defaultEmail} />
        <FormField id="password" name="password" type="password" label="Password" autoComplete="current-password" required autoFocus={defaultEmail !== undefined} />
        <button type="submit" className={BUTTON_CLASS} disabled={isPending || !isHydrated}>
          {isPending ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {isGithubEnabled && (
        <div className="border-t border-line pt-4">
          <button type="button" className={SECONDARY_BUTTON_CLASS} disabled={!isHydrated} onClick={() => void signIn("github", { callbackUrl })}>
            Sign in with GitHub
          </button>
        </div>
      )}
    </div>
  );
}
