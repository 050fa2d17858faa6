"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { formText, invalidFormState, type FormState } from "@/lib/auth/form-state";
import { formStateFromError } from "@/lib/auth/form-state-from-error";
import { signUpSchema } from "@/lib/auth/schemas";
import { requestIp } from "@/lib/rate-limit/request-ip";
import { registerUser } from "@/lib/users/register-user";

/**
 * Creates a participant account, then sends the person to sign in. The
 * outcome looks the same when the email already had an account (see
 * lib/users/register-user.ts): no account enumeration.
 */
export async function signUpAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const values = {
    email: formText(formData, "email"),
    displayName: formText(formData, "displayName"),
    affiliation: formText(formData, "affiliation"),
  };
  const parsed = signUpSchema.safeParse({ ...values, password: formText(formData, "password") });
  if (!parsed.success) return invalidFormState(parsed.error, values);
  try {
    await registerUser({ ...parsed.data, ip: requestIp(await headers()) });
  } catch (error) {
    return formStateFromError(error, values);
  }
  redirect("/sign-in?registered=1");
}
