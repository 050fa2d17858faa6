import { encode } from "next-auth/jwt";

/**
 * Signed-in state without the sign-in form: a next-auth session cookie
 * encrypted with the server's NEXTAUTH_SECRET, exactly what the credentials
 * sign-in sets (the token holds only the user id). The integration tests send
 * it as a Cookie header; the browser tests put it in a browser context
 * (e2e/fixtures/session.ts).
 */
function requireSecret(): string {
  const secret = process.env.NEXTAUTH_SECRET;
  if (!secret) throw new Error("NEXTAUTH_SECRET must be set: the server and the test fixtures share it");
  return secret;
}

/** The cookie's name; https deployments use the __Secure- prefix (lib/domain/accounts/session-cookie.ts). */
export function sessionCookieName(isSecure = false): string {
  return isSecure ? "__Secure-next-auth.session-token" : "next-auth.session-token";
}

export async function sessionCookieValue(user: { id: string }): Promise<string> {
  return encode({ token: { sub: user.id }, secret: requireSecret(), maxAge: 60 * 60 });
}

/** `name=value`, as a browser on http sends it in the Cookie header. */
export async function sessionCookieHeader(user: { id: string }): Promise<string> {
  return `${sessionCookieName()}=${await sessionCookieValue(user)}`;
}
