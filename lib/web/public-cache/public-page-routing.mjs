/**
 * Which requests for a public leaderboard page may be answered from the shared
 * cache of rendered pages (lib/web/public-cache/public-page-cache.ts). Plain
 * JavaScript: the production web server (scripts/server/web-server.mjs) decides
 * before Next.js sees the request, and the route that serves the cache checks
 * the same paths again.
 *
 * Every reader of these pages, signed in or not, gets the same body: the page
 * as an anonymous reader sees it. Nothing on them depends on who is asking
 * except the header's account menu, which the browser fetches separately
 * (components/auth/account-menu.tsx, GET /api/account-menu), so the session
 * cookie and the Authorization header play no part here. Client-side
 * navigations (RSC payloads, prefetches, server actions) are never cached:
 * their bodies depend on the router state they send.
 */

/** @type {readonly RegExp[]} */
const CACHEABLE_PAGE_PATHS = [
  /^\/leaderboard$/,
  /^\/leaderboard\/matrix$/,
  /^\/leaderboard\/types\/[A-Za-z0-9_-]{1,40}$/,
  /^\/entries\/[A-Za-z0-9_-]{1,64}$/,
];

/** Request headers that make a response depend on client-side router state. */
const ROUTER_HEADERS = ["rsc", "next-router-prefetch", "next-router-state-tree", "next-router-segment-prefetch", "next-action"];

/** next-auth's session cookie, secure or not, whole or split into .0, .1, ... chunks. */
const SESSION_COOKIE = /^(?:__Secure-|__Host-)?next-auth\.session-token(?:\.\d+)?$/;

/** The internal route that serves cached pages; its `path` parameter is the canonical page path. */
export const PUBLIC_PAGE_ROUTE = "/api/public-page";

/** @param {string} pathname */
function isCacheablePagePath(pathname) {
  return CACHEABLE_PAGE_PATHS.some((pattern) => pattern.test(pathname));
}

/**
 * The page's path and query in one canonical form (parameters sorted by name,
 * repeated names kept in their order), or null when the page is not cached.
 * @param {string} target a path and query, such as "/leaderboard?track=closed"
 */
export function canonicalPagePath(target) {
  if (!target.startsWith("/") || target.startsWith("//")) return null;
  let url;
  try {
    url = new URL(target, "http://localhost");
  } catch {
    return null;
  }
  if (!isCacheablePagePath(url.pathname) || url.searchParams.has("_rsc")) return null;
  // An earlier release's board (?release=VERSION) is outside the active release's stamp that versions the cache.
  if (url.searchParams.has("release")) return null;
  url.searchParams.sort();
  const query = url.searchParams.toString();
  return query === "" ? url.pathname : `${url.pathname}?${query}`;
}

/** @param {string | string[] | undefined} header */
export function hasSessionCookie(header) {
  if (header === undefined) return false;
  const text = Array.isArray(header) ? header.join(";") : header;
  return text.split(";").some((part) => {
    const separator = part.indexOf("=");
    const name = (separator < 0 ? part : part.slice(0, separator)).trim();
    return SESSION_COOKIE.test(name);
  });
}

/**
 * The canonical page path when this request gets the shared body (whoever
 * sends it), otherwise null.
 * @param {{ method?: string; url?: string; headers: Record<string, string | string[] | undefined> }} request
 */
export function cacheablePageRequest(request) {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  if (hasRouterHeader(request.headers)) return null;
  return canonicalPagePath(request.url ?? "");
}

/**
 * Whether the request is a client-side navigation, prefetch or server action.
 * @param {Record<string, string | string[] | undefined>} headers
 */
export function hasRouterHeader(headers) {
  for (const name of ROUTER_HEADERS) if (headers[name] !== undefined) return true;
  return false;
}
