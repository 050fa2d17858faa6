import "server-only";
import type { SignUpInput } from "@/lib/core/accounts/auth-schemas";
import { isAppError } from "@/lib/core/errors";
import { limitAuthAttempt } from "@/lib/domain/accounts/auth-limits";
import { createUser } from "@/lib/domain/accounts/create-user";

/**
 * Self-service sign-up. Returns the new account's id, or null when the email
 * already has an account: that account is neither changed nor signed in, and
 * the password is hashed in both cases so the response time does not tell
 * them apart. The caller signs a new account in at once (docs/accounts.md says
 * what that answer reveals, and why it reveals no more than before). Throws
 * AppError("rate_limited") past the limits.
 */
export async function registerUser(options: SignUpInput & { ip: string }): Promise<{ userId: string } | null> {
  await limitAuthAttempt("sign-up", { ip: options.ip, email: options.email });
  try {
    const user = await createUser({
      email: options.email,
      password: options.password,
      displayName: options.displayName,
      affiliation: options.affiliation,
      role: "PARTICIPANT",
    });
    return { userId: user.id };
  } catch (error) {
    if (isAppError(error) && error.code === "conflict") return null;
    throw error;
  }
}
