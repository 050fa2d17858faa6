import "server-only";
import { getEnv } from "@/lib/env";
import { clientIpFrom } from "@/lib/rate-limit/client-ip";

type HeaderSource = Headers | Record<string, unknown> | undefined;

function forwardedFor(source: HeaderSource): string | null {
  if (!source) return null;
  if (source instanceof Headers) return source.get("x-forwarded-for");
  const value = source["x-forwarded-for"];
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.filter((entry) => typeof entry === "string").join(",");
  return null;
}

/** The client address of a request, for rate limits (TRUSTED_PROXY_HOPS decides which X-Forwarded-For entry). */
export function requestIp(source: HeaderSource): string {
  return clientIpFrom(forwardedFor(source), getEnv().TRUSTED_PROXY_HOPS);
}
