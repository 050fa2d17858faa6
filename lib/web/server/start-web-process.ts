import "server-only";
import { getEnv, type Env } from "@/lib/platform/env";

/**
 * What a Next.js server process does once at start in the Node.js runtime
 * (called from instrumentation.ts, which the Edge build also compiles: keeping
 * this in its own module means Node-only calls such as process.exit never
 * reach the Edge bundle). It validates the environment (lib/platform/env.ts: a bad
 * value stops the server with a message naming the variable; `next build`
 * does not look at it), makes the socket address of each request visible to
 * rate limits (lib/platform/rate-limit/socket-address.ts, lib/platform/rate-limit/client-ip.ts),
 * times every request for /metrics (lib/platform/metrics/http-metrics.ts) and hands
 * scripts/server/web-server.mjs the fast path that answers cache hits of public pages
 * and API bodies before Next.js sees them (lib/web/public-cache/public-fast-path.ts).
 */
export async function startWebProcess(): Promise<void> {
  const env = validatedEnvOrExit();
  // next-auth builds its callback and redirect URLs from NEXTAUTH_URL: unset, it follows PUBLIC_URL (lib/platform/public-url.ts).
  if (env.NEXTAUTH_URL === undefined && env.PUBLIC_URL !== undefined) process.env.NEXTAUTH_URL = env.PUBLIC_URL;
  const { isPublicUrlConfigured, publicOrigin } = await import("@/lib/platform/public-url");
  if (env.NODE_ENV === "production" && !isPublicUrlConfigured(env)) {
    const { logger } = await import("@/lib/platform/logger");
    logger.warn({ service: "web" }, `PUBLIC_URL is not set: links in API answers will point to ${publicOrigin(env)}; set PUBLIC_URL to the address participants use (docs/deploy.md)`);
  }
  const { installSocketAddressStamp } = await import("@/lib/platform/rate-limit/socket-address");
  installSocketAddressStamp();
  const { installHttpMetrics } = await import("@/lib/platform/metrics/http-metrics");
  installHttpMetrics();
  const { installPublicFastPath } = await import("@/lib/web/public-cache/public-fast-path");
  installPublicFastPath();
}

/** The parsed environment; a bad one ends the process with the message that names the variable, not a stack trace. */
function validatedEnvOrExit(): Env {
  try {
    return getEnv();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
