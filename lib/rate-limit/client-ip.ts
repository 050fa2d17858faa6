/**
 * The client address used as a rate-limit key. Next.js fills X-Forwarded-For
 * with the socket address only when the header is absent, so behind N proxies
 * that each append the address they saw, the client is the N-th entry from the
 * right; entries further left are whatever the client sent and are ignored.
 * Without a proxy a client can choose the value, so production deployments
 * should sit behind one (see docs/accounts.md).
 */
export function clientIpFrom(forwardedFor: string | null | undefined, trustedProxyHops: number): string {
  const entries = (forwardedFor ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (entries.length === 0) return "unknown";
  const index = Math.max(0, entries.length - Math.max(1, trustedProxyHops));
  return normalizeIp(entries[index] ?? "unknown");
}

/** "::ffff:127.0.0.1" and "127.0.0.1" are one client. */
function normalizeIp(value: string): string {
  const lower = value.toLowerCase();
  return lower.startsWith("::ffff:") && lower.includes(".") ? lower.slice("::ffff:".length) : lower;
}
