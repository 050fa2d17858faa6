"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { formText, invalidFormState, type FormState } from "@/lib/core/accounts/form-state";
import { formStateFromError } from "@/lib/domain/accounts/form-state-from-error";
import { signUpSchema } from "@/lib/core/accounts/auth-schemas";
import { requestIp } from "@/lib/platform/rate-limit/request-ip";
import { registerUser } from "@/lib/domain/accounts/register-user";
import { newSessionCookie } from "@/lib/domain/accounts/session-cookie";
import { SIGN_UP_EMAIL_COOKIE, SIGN_UP_EMAIL_MAX_AGE_S } from "@/lib/core/accounts/sign-up-email";

/**
 * Creates a participant account and signs it in: the person lands on their
 * account page. When the email already had an account (see
 * lib/domain/accounts/register-user.ts) nothing changes and no one is signed
 * in: the person is sent to sign in with the email filled in.
 */
export async function signUpAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const values = {
    email: formText(formData, "email"),
    displayName: formText(formData, "displayName"),
    affiliation: formText(formData, "affiliation"),
  };
  const parsed = signUpSchema.safeParse({ ...values, password: formText(formData, "password") });
  if (!parsed.success) return invalidFormState(parsed.error, values);
  let created: Awaited<ReturnType<typeof registerUser>>;
  try {
    created = await registerUser({ ...parsed.data, ip: requestIp(await headers()) });
  } catch (error) {
    return formStateFromError(error, values);
  }
  if (created !== null) {
    const session = await newSessionCookie(created.userId);
    (await cookies()).set(session.name, session.value, session.options);
    redirect("/account?welcome=1");
  }
  // The sign-in form starts with the address just typed (a short-lived cookie, so it never sits in a URL or the history).
  (await cookies()).set(SIGN_UP_EMAIL_COOKIE, parsed.data.email, { httpOnly: true, sameSite: "lax", path: "/sign-in", maxAge: SIGN_UP_EMAIL_MAX_AGE_S });
  redirect("/sign-in?registered=1");
}
