import { AppError } from "@/lib/core/errors";

/**
 * CSRF defence for route handlers that change data on the strength of a
 * session cookie: the browser's Origin header must name this site. Browsers
 * always send Origin on POST, PUT, PATCH and DELETE, so a missing Origin is
 * refused too. Requests with an API token carry no cookie and skip this check;
 * server actions get the same check from Next.js itself.
 */
const MUTATING_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function isMutatingMethod(method: string): boolean {
  return MUTATING_METHODS.has(method.toUpperCase());
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
}

/** Hosts this site answers on: Host, the first X-Forwarded-Host, and NEXTAUTH_URL's host. */
function allowedHosts(headers: Headers, configuredUrl: string | undefined): Set<string> {
  const hosts = new Set<string>();
  const host = headers.get("host");
  if (host) hosts.add(host.trim().toLowerCase());
  const forwardedHost = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  if (forwardedHost) hosts.add(forwardedHost.toLowerCase());
  const configuredHost = configuredUrl ? hostOf(configuredUrl) : null;
  if (configuredHost) hosts.add(configuredHost);
  return hosts;
}

export function assertSameOrigin(headers: Headers, configuredUrl: string | undefined): void {
  const origin = headers.get("origin");
  const originHost = origin && origin !== "null" ? hostOf(origin) : null;
  if (originHost && allowedHosts(headers, configuredUrl).has(originHost)) return;
  throw new AppError(
    "forbidden",
    "Cross-site request refused: a signed-in request that changes data must come from this site's pages. Scripts should use an API token.",
  );
}
