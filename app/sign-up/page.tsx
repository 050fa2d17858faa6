import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { getActor } from "@/lib/domain/accounts/get-actor";
import { signUpAction } from "@/app/sign-up/actions";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage() {
  const actor = await getActor();
  if (actor.kind === "user") redirect("/account");
  return (
    <div className="mx-auto max-w-md space-y-6">
      <h1 className="text-3xl font-bold">Create an account</h1>
      <p className="text-muted">An account lets you submit test-set predictions and publish your results on the leaderboard.</p>
      <SignUpForm action={signUpAction} />
      <p>
        Already registered? <Link href="/sign-in">Sign in</Link>.
      </p>
    </div>
  );
}
