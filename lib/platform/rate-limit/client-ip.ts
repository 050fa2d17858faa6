/**
 * The client address used as a rate-limit key (protocol §12: an identity is
 * the client address as seen by the platform, never a client-supplied header
 * unless a trusted proxy is configured).
 *
 * `next start` fills X-Forwarded-For with the socket address only when the
 * request has none (base-server.js: `??=`), so the header alone cannot tell a
 * client's own value from the socket's. The socket address comes from a
 * header of our own that the web process stamps on every request, replacing
 * whatever the client sent (lib/platform/rate-limit/socket-address.ts).
 *
 * - 0 trusted proxies: the socket address; X-Forwarded-For is ignored.
 * - N trusted proxies that each append the address they saw: the N-th entry
 *   from the right of X-Forwarded-For; entries further left are whatever the
 *   client sent and are ignored.
 */
type RequestAddressParts = {
  forwardedFor: string | null | undefined;
  socketAddress: string | null | undefined;
};

const UNKNOWN_CLIENT = "unknown";

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

/** The 16-bit groups of an IPv6 address (a trailing dotted IPv4 part counts as two), or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  const withoutZone = address.split("%")[0] ?? "";
  const halves = withoutZone.split("::");
  if (halves.length > 2) return null;
  const parseHalf = (half: string): number[] | null => {
    if (half === "") return [];
    const groups: number[] = [];
    const parts = half.split(":");
    for (const [index, part] of parts.entries()) {
      if (index === parts.length - 1 && part.includes(".")) {
        const octets = part.split(".").map((octet) => (/^\d{1,3}$/.test(octet) ? Number(octet) : Number.NaN));
        if (octets.length !== 4 || octets.some((octet) => !(octet <= 255))) return null;
        const [a = 0, b = 0, c = 0, d = 0] = octets;
        groups.push(a * 256 + b, c * 256 + d);
        continue;
      }
      if (!/^[0-9a-f]{1,4}$/i.test(part)) return null;
      groups.push(Number.parseInt(part, 16));
    }
    return groups;
  };
  const head = parseHalf(halves[0] ?? "");
  const tail = halves.length === 2 ? parseHalf(halves[1] ?? "") : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...Array.from({ length: missing }, () => 0), ...tail];
}

/**
 * The key a client address is counted under by the sign-up and sign-in limits
 * and the test quota (protocol §12): an IPv4 address as it is, an IPv6 address
 * by its /64 ("2001:db8:1:2::/64"), the smallest network one subscriber is
 * given, so the 2^64 addresses of one connection are one client. Anything else
 * ("unknown") is its own bucket.
 */
export function addressBucket(clientIp: string): string {
  if (!clientIp.includes(":")) return clientIp;
  const groups = ipv6Groups(clientIp.toLowerCase());
  if (!groups) return clientIp;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}
