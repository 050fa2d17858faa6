/**
 * The client address used as a rate-limit key (protocol §12: an identity is
 * the client address as seen by the platform, never a client-supplied header
 * unless a trusted proxy is configured).
 *
 * `next start` fills X-Forwarded-For with the socket address only when the
 * request has none (base-server.js: `??=`), so the header alone cannot tell a
 * client's own value from the socket's. The socket address comes from a
 * header of our own that the web process stamps on every request, replacing
 * whatever the client sent (lib/server/socket-address.ts).
 *
 * - 0 trusted proxies: the socket address; X-Forwarded-For is ignored.
 * - N trusted proxies that each append the address they saw: the N-th entry
 *   from the right of X-Forwarded-For; entries further left are whatever the
 *   client sent and are ignored.
 */
export type RequestAddressParts = {
  forwardedFor: string | null | undefined;
  socketAddress: string | null | undefined;
};

export const UNKNOWN_CLIENT = "unknown";

export function clientIpFrom(parts: RequestAddressParts, trustedProxyHops: number): string {
  const socket = parts.socketAddress?.trim() || null;
  if (trustedProxyHops <= 0) return socket ? normalizeIp(socket) : UNKNOWN_CLIENT;
  const entries = (parts.forwardedFor ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  // Behind a proxy that sent no header, the nearest hop is all there is.
  if (entries.length === 0) return socket ? normalizeIp(socket) : UNKNOWN_CLIENT;
  const index = Math.max(0, entries.length - trustedProxyHops);
  return normalizeIp(entries[index] ?? UNKNOWN_CLIENT);
}

/** "::ffff:127.0.0.1" and "127.0.0.1" are one client. */
function normalizeIp(value: string): string {
  const lower = value.toLowerCase();
  return lower.startsWith("::ffff:") && lower.includes(".") ? lower.slice("::ffff:".length) : lower;
}
