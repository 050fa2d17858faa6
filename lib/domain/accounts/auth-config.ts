import "server-only";
import { getEnv } from "@/lib/platform/env";
import { publicOrigin } from "@/lib/platform/public-url";

/** How long a browser session lasts without signing in again. */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

export function getAuthSecret(): string {
  const secret = getEnv().NEXTAUTH_SECRET;
  if (!secret) {
    throw new Error(
      "NEXTAUTH_SECRET is not set: sessions cannot be signed. scripts/ops/up.sh and scripts/ci/test-all.sh keep one in .data/nextauth-secret; set it in production.",
    );
  }
  return secret;
}

/** Secure (`__Secure-`) cookies whenever the site is served over https. */
export function isSecureCookieDeployment(): boolean {
  return publicOrigin().startsWith("https://");
}

export function isGithubSignInEnabled(): boolean {
  const env = getEnv();
  return Boolean(env.GITHUB_ID && env.GITHUB_SECRET);
}
