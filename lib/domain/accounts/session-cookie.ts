import "server-only";
import { decode, encode } from "next-auth/jwt";
import { getAuthSecret, isSecureCookieDeployment, SESSION_MAX_AGE_SECONDS } from "@/lib/domain/accounts/auth-config";

/**
 * Reads the next-auth session (a JWE in an httpOnly cookie) without going
 * through next-auth's HTTP handler, so route handlers, server actions and
 * pages decode it the same way. Large sessions are split into `name.0`,
 * `name.1`, ... chunks by next-auth; they are joined back in order. A new
 * account's first session is written here too, as next-auth writes one.
 */
function sessionCookieName(): string {
  return isSecureCookieDeployment() ? "__Secure-next-auth.session-token" : "next-auth.session-token";
}

function parseCookieHeader(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of header.split(";")) {
    const separator = part.indexOf("=");
    if (separator <= 0) continue;
    const name = part.slice(0, separator).trim();
    const raw = part.slice(separator + 1).trim();
    try {
      cookies.set(name, decodeURIComponent(raw));
    } catch {
      cookies.set(name, raw);
    }
  }
  return cookies;
}

function readSessionCookie(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  const name = sessionCookieName();
  const cookies = parseCookieHeader(cookieHeader);
  const whole = cookies.get(name);
  if (whole) return whole;
  const chunks: string[] = [];
  for (let index = 0; cookies.has(`${name}.${index}`); index += 1) {
    chunks.push(cookies.get(`${name}.${index}`) ?? "");
  }
  return chunks.length > 0 ? chunks.join("") : null;
}

/** The user id in a valid, unexpired session cookie; null otherwise. */
export async function readSessionUserId(cookieHeader: string | null): Promise<string | null> {
  const token = readSessionCookie(cookieHeader);
  if (!token) return null;
  const secret = getAuthSecret();
  try {
    const payload = await decode({ token, secret });
    return typeof payload?.sub === "string" && payload.sub.length > 0 ? payload.sub : null;
  } catch {
    return null;
  }
}

/**
 * The cookie next-auth's credentials sign-in would set for this user (the same
 * name, token claims, lifetime and flags), for a server action that has just
 * created the account: sign-up lands signed in.
 */
export async function newSessionCookie(userId: string): Promise<{ name: string; value: string; options: { httpOnly: true; sameSite: "lax"; path: "/"; secure: boolean; maxAge: number } }> {
  const value = await encode({ token: { sub: userId }, secret: getAuthSecret(), maxAge: SESSION_MAX_AGE_SECONDS });
  return { name: sessionCookieName(), value, options: { httpOnly: true, sameSite: "lax", path: "/", secure: isSecureCookieDeployment(), maxAge: SESSION_MAX_AGE_SECONDS } };
}
