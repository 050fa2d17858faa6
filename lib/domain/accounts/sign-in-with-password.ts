import "server-only";
import { DEFAULT_SCRYPT_PARAMS, hashPassword, needsRehash, verifyPassword } from "@/lib/domain/accounts/password";
import { signInSchema } from "@/lib/core/accounts/auth-schemas";
import { db } from "@/lib/platform/db";
import { clearAccountAttempts, limitAuthAttempt } from "@/lib/domain/accounts/auth-limits";

type SignedInUser = { id: string; displayName: string };

let dummyHash: Promise<string> | undefined;

/** A hash to verify against when the email is unknown, so both paths cost one scrypt. */
function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword("no account has this password", DEFAULT_SCRYPT_PARAMS);
  return dummyHash;
}

/**
 * Checks an email and password. Returns the user, or null for any failure
 * (unknown email, wrong password, GitHub-only account, malformed input) so
 * callers can only ever say "Email or password is incorrect". Throws
 * AppError("rate_limited") when the address or the account is over its limit.
 */
export async function signInWithPassword(attempt: { email: unknown; password: unknown; ip: string }): Promise<SignedInUser | null> {
  const rawEmail = typeof attempt.email === "string" ? attempt.email : "";
  await limitAuthAttempt("sign-in", { ip: attempt.ip, email: rawEmail });

  const parsed = signInSchema.safeParse({ email: attempt.email, password: attempt.password });
  if (!parsed.success) return null;
  const { email, password } = parsed.data;

  const user = await db.user.findUnique({
    where: { email },
    select: { id: true, displayName: true, passwordHash: true, isSystem: true },
  });
  if (!user || !user.passwordHash || user.isSystem) {
    await verifyPassword(password, await getDummyHash());
    return null;
  }
  if (!(await verifyPassword(password, user.passwordHash))) return null;

  await clearAccountAttempts("sign-in", email);
  if (needsRehash(user.passwordHash)) {
    await db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(password) } });
  }
  return { id: user.id, displayName: user.displayName };
}
