import "server-only";
import { getEnv } from "@/lib/platform/env";
import { clientIpFrom } from "@/lib/platform/rate-limit/client-ip";
import { SOCKET_ADDRESS_HEADER } from "@/lib/platform/rate-limit/socket-address";

type HeaderSource = Headers | Record<string, unknown> | undefined;

function headerValue(source: HeaderSource, name: string): string | null {
  if (!source) return null;
  if (source instanceof Headers) return source.get(name);
  const value = source[name];
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.filter((entry) => typeof entry === "string").join(",");
  return null;
}

/** The client address of a request, for rate limits (TRUSTED_PROXY_HOPS decides; see client-ip.ts). */
export function requestIp(source: HeaderSource): string {
  return clientIpFrom(
    { forwardedFor: headerValue(source, "x-forwarded-for"), socketAddress: headerValue(source, SOCKET_ADDRESS_HEADER) },
    getEnv().TRUSTED_PROXY_HOPS,
  );
}
