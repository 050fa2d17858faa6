import type { Metadata } from "next";
import Link from "next/link";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { FormMessage } from "@/components/auth/form-field";
import { isGithubSignInEnabled } from "@/lib/domain/accounts/auth-config";
import { getActor } from "@/lib/domain/accounts/get-actor";
import { safeCallbackPath, signInErrorMessage } from "@/lib/core/accounts/sign-in-errors";
import { SIGN_UP_EMAIL_COOKIE } from "@/lib/core/accounts/sign-up-email";
import { emailSchema } from "@/lib/core/accounts/auth-schemas";

export const metadata: Metadata = { title: "Sign in" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(first(params.callbackUrl), "/");
  const actor = await getActor();
  if (actor.kind === "user") redirect(callbackUrl);
  const isRegistered = first(params.registered) === "1";
  const typedEmail = isRegistered ? emailSchema.safeParse((await cookies()).get(SIGN_UP_EMAIL_COOKIE)?.value ?? "") : null;
  const defaultEmail = typedEmail?.success ? typedEmail.data : undefined;

  return (
    <div className="mx-auto max-w-md space-y-6">
      <h1 className="text-3xl font-bold">Sign in</h1>
      {isRegistered && (
        <FormMessage
          status="success"
          message="This email already has an account, which is unchanged: sign in below with that account's password."
        />
      )}
      <SignInForm callbackUrl={callbackUrl} defaultEmail={defaultEmail} initialError={signInErrorMessage(first(params.error))} isGithubEnabled={isGithubSignInEnabled()} />
      <p>
        New to IRC-Bench? <Link href="/sign-up">Create an account</Link>.
      </p>
    </div>
  );
}
