/**
 * Which requests for a public leaderboard page may be answered from the shared
 * cache of rendered pages (lib/public-cache/public-page-cache.ts). Plain
 * JavaScript: the production web server (scripts/server/web-server.mjs) decides
 * before Next.js sees the request, and the route that serves the cache checks
 * the same paths again.
 *
 * Pages carry a per-viewer header (the signed-in name, the maintainer's
 * links), so only a request that cannot be signed in is cacheable: no session
 * cookie under any of next-auth's names (chunks included), no Authorization
 * header. Client-side navigations (RSC payloads, prefetches, server actions)
 * are never cached: their bodies depend on the router state they send.
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
 * The canonical page path when this request may get the shared anonymous
 * body, otherwise null.
 * @param {{ method?: string; url?: string; headers: Record<string, string | string[] | undefined> }} request
 */
export function cacheablePageRequest(request) {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const { headers } = request;
  if (headers.authorization !== undefined || hasSessionCookie(headers.cookie)) return null;
  if (ROUTER_HEADERS.some((name) => headers[name] !== undefined)) return null;
  return canonicalPagePath(request.url ?? "");
}
