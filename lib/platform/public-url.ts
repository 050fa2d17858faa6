import { getEnv, type Env } from "@/lib/platform/env";

/**
 * The one place absolute links to this site are made (upload responses, the
 * OpenAPI servers list, exports): from the configured public base URL,
 * PUBLIC_URL, else NEXTAUTH_URL, else http://localhost:PORT for a local run.
 * Never from the request's Host or X-Forwarded-Host: behind a proxy those
 * name the internal address (or whatever a client chose to send), not the
 * address participants can reach.
 */
type PublicUrlEnv = Pick<Env, "PUBLIC_URL" | "NEXTAUTH_URL">;

const DEFAULT_PORT = 3000;

/** The site's public origin without a trailing slash: "https://irc-bench.example.org". */
export function publicOrigin(env: PublicUrlEnv = getEnv(), port: string | undefined = process.env.PORT): string {
  const configured = env.PUBLIC_URL ?? env.NEXTAUTH_URL;
  if (configured !== undefined) return new URL(configured).origin;
  return `http://localhost:${port ?? DEFAULT_PORT}`;
}

/** An absolute link to a path of this site: publicUrl("/submissions/ID") is "https://irc-bench.example.org/submissions/ID". */
export function publicUrl(pathname: string, env?: PublicUrlEnv): string {
  if (!pathname.startsWith("/")) throw new Error(`publicUrl: "${pathname}" must start with "/"`);
  return `${publicOrigin(env)}${pathname}`;
}

/** True when the public URL is configured (PUBLIC_URL or NEXTAUTH_URL), not the localhost fallback. */
export function isPublicUrlConfigured(env: PublicUrlEnv = getEnv()): boolean {
  return env.PUBLIC_URL !== undefined || env.NEXTAUTH_URL !== undefined;
}
