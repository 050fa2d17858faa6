import "server-only";
import { AppError } from "@/lib/core/errors";
import { addressBucket } from "@/lib/platform/rate-limit/client-ip";
import { consumeRateLimit, resetRateLimit, type RateLimitRule } from "@/lib/platform/rate-limit/fixed-window";
import { formatTooManyAttempts } from "@/lib/core/format/format-retry";

const MINUTE = 60;

/**
 * Attempts per window. Every attempt counts (not only failures), so a password
 * cannot be guessed faster by interleaving a correct one; a successful sign-in
 * clears that account's counter.
 */
export const AUTH_RATE_LIMITS = {
  signInPerIp: { name: "sign-in:ip", limit: 30, windowSeconds: 15 * MINUTE },
  signInPerAccount: { name: "sign-in:account", limit: 5, windowSeconds: 15 * MINUTE },
  signUpPerIp: { name: "sign-up:ip", limit: 10, windowSeconds: 60 * MINUTE },
  signUpPerAccount: { name: "sign-up:account", limit: 3, windowSeconds: 60 * MINUTE },
} as const satisfies Record<string, RateLimitRule>;

type AuthAttemptKind = "sign-in" | "sign-up";

function rulesFor(kind: AuthAttemptKind): { perIp: RateLimitRule; perAccount: RateLimitRule } {
  return kind === "sign-in"
    ? { perIp: AUTH_RATE_LIMITS.signInPerIp, perAccount: AUTH_RATE_LIMITS.signInPerAccount }
    : { perIp: AUTH_RATE_LIMITS.signUpPerIp, perAccount: AUTH_RATE_LIMITS.signUpPerAccount };
}

function accountKey(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Counts one attempt against the client address (an IPv6 client by its /64,
 * an IPv4 client by its address: addressBucket) and the account, and throws
 * AppError("rate_limited") with "Too many attempts, try again in N minutes."
 * when either is over its limit. A blocked address does not also spend the
 * account's budget.
 */
export async function limitAuthAttempt(kind: AuthAttemptKind, attempt: { ip: string; email: string }): Promise<void> {
  const rules = rulesFor(kind);
  const byIp = await consumeRateLimit(rules.perIp, addressBucket(attempt.ip));
  if (!byIp.isAllowed) {
    throw new AppError("rate_limited", formatTooManyAttempts(byIp.retryAfterSeconds), { retryAfterSeconds: byIp.retryAfterSeconds });
  }
  const byAccount = await consumeRateLimit(rules.perAccount, accountKey(attempt.email));
  if (!byAccount.isAllowed) {
    throw new AppError("rate_limited", formatTooManyAttempts(byAccount.retryAfterSeconds), {
      retryAfterSeconds: byAccount.retryAfterSeconds,
    });
  }
}

export async function clearAccountAttempts(kind: AuthAttemptKind, email: string): Promise<void> {
  await resetRateLimit(rulesFor(kind).perAccount, accountKey(email));
}
