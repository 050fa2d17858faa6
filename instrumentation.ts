/**
 * Runs once when a Next.js server process starts. In the Node.js runtime it
 * makes the socket address of each request visible to rate limits (see
 * lib/server/socket-address.ts and lib/rate-limit/client-ip.ts) and times
 * every request for /metrics (lib/metrics/http-metrics.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installSocketAddressStamp } = await import("@/lib/server/socket-address");
  installSocketAddressStamp();
  const { installHttpMetrics } = await import("@/lib/metrics/http-metrics");
  installHttpMetrics();
}
