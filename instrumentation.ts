/**
 * Runs once when a Next.js server process starts. In the Node.js runtime it
 * validates the environment (lib/env.ts: a bad value stops the server with a
 * message naming the variable, even when the build skipped that check) and
 * makes the socket address of each request visible to rate limits (see
 * lib/server/socket-address.ts and lib/rate-limit/client-ip.ts) and times
 * every request for /metrics (lib/metrics/http-metrics.ts). It also hands
 * scripts/web-server.mjs the fast path that answers cache hits of public
 * pages and API bodies before Next.js sees them
 * (lib/leaderboard/public-fast-path.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getEnv } = await import("@/lib/env");
  try {
    getEnv();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  const { installSocketAddressStamp } = await import("@/lib/server/socket-address");
  installSocketAddressStamp();
  const { installHttpMetrics } = await import("@/lib/metrics/http-metrics");
  installHttpMetrics();
  const { installPublicFastPath } = await import("@/lib/leaderboard/public-fast-path");
  installPublicFastPath();
}
