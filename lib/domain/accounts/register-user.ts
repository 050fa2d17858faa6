import "server-only";
import type { SignUpInput } from "@/lib/core/accounts/auth-schemas";
import { isAppError } from "@/lib/core/errors";
import { limitAuthAttempt } from "@/lib/domain/accounts/auth-limits";
import { createUser } from "@/lib/domain/accounts/create-user";

/**
 * Self-service sign-up. The answer is the same whether or not the email
 * already has an account (no account enumeration): an existing account is
 * neither changed nor revealed, and the password is hashed in both cases so
 * the response time does not tell them apart either. The caller then sends
 * the person to sign in. Throws AppError("rate_limited") past the limits.
 */
export async function registerUser(options: SignUpInput & { ip: string }): Promise<void> {
  await limitAuthAttempt("sign-up", { ip: options.ip, email: options.email });
  try {
    await createUser({
      email: options.email,
      password: options.password,
      displayName: options.displayName,
      affiliation: options.affiliation,
      role: "PARTICIPANT",
    });
  } catch (error) {
    if (isAppError(error) && error.code === "conflict") return;
    throw error;
  }
}
