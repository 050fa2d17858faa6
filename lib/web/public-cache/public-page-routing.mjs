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
import { URLSearchParams } from "node:url";

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

/** The internal route that serves cached pages; its `path` parameter is the page's path and query as requested. */
export const PUBLIC_PAGE_ROUTE = "/api/public-page";

/** @param {string} pathname */
function isCacheablePagePath(pathname) {
  return CACHEABLE_PAGE_PATHS.some((pattern) => pattern.test(pathname));
}

/**
 * The request target split into its path and query exactly as sent (no
 * decoding, no normalisation) when it names one of the cached pages, else
 * null. Which view it is, and whether this is that view's canonical address
 * (the cache's key) or a spelling to redirect, is decided by
 * publicPageAddress (lib/core/leaderboard/page-queries.ts) in the route and
 * the fast path.
 * @param {string} target a path and query, such as "/leaderboard?track=closed"
 * @returns {{ pathname: string; search: string } | null}
 */
export function publicPageTarget(target) {
  if (!target.startsWith("/") || target.startsWith("//")) return null;
  const queryAt = target.indexOf("?");
  const pathname = queryAt < 0 ? target : target.slice(0, queryAt);
  const search = queryAt < 0 ? "" : target.slice(queryAt);
  if (!isCacheablePagePath(pathname)) return null;
  const params = new URLSearchParams(search);
  if (params.has("_rsc")) return null;
  // An earlier release's board (?release=VERSION) is outside the active release's stamp that versions the cache.
  if (params.has("release")) return null;
  return { pathname, search };
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
 * The request target (path and query as sent) when this request goes to the
 * shared page cache's route (whoever sends it), otherwise null.
 * @param {{ method?: string; url?: string; headers: Record<string, string | string[] | undefined> }} request
 */
export function cacheablePageRequest(request) {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  if (hasRouterHeader(request.headers)) return null;
  const target = request.url ?? "";
  return publicPageTarget(target) === null ? null : target;
}

/**
 * Whether the request is a client-side navigation, prefetch or server action.
 * @param {Record<string, string | string[] | undefined>} headers
 */
export function hasRouterHeader(headers) {
  for (const name of ROUTER_HEADERS) if (headers[name] !== undefined) return true;
  return false;
}
