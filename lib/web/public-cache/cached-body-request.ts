import { LEADERBOARD_API } from "@/lib/web/api/operations/leaderboard";
import { parseQuery } from "@/lib/core/input/parse-input";
import { entriesBodyKey, entryBodyKey, leaderboardBodyKey, pageBodyKey } from "./public-body-keys";
import { hasRouterHeader } from "./public-page-routing.mjs";
import { entryIdSchema } from "@/lib/core/leaderboard/query-schemas";
import { LRUCache } from "lru-cache";
import { pageAddressOf } from "./page-address";

/**
 * Which body of the public body cache a request may be answered with by the
 * web server's fast path (public-fast-path.ts), before Next.js sees it:
 *
 * - a GET or HEAD of a cached public page, from anyone: exactly
 *   public-page-routing.mjs's rule, the one that sends it to /api/public-page,
 *   at the view's canonical address (page-address.ts); another spelling of
 *   a view is answered with the route's redirect to that address;
 * - GET or HEAD of the public API's cached reads (/api/leaderboard,
 *   /api/entries, /api/entries/ID) with a query the route accepts, parsed by
 *   the route's own schema. These routes are "public": they read no
 *   credentials, so every caller gets the same body.
 *
 * Anything else is null: Next.js answers it itself (every 422 and 404 too).
 */

export type CachedBodyRequest = { kind: "page" | "json"; key: string } | { kind: "redirect"; location: string };

type IncomingRequestHead = { method?: string; url?: string; headers: Record<string, string | string[] | undefined> };

const ENTRY_API_PATH = /^\/api\/entries\/([^/]+)$/;

function apiBodyRequest(target: string): CachedBodyRequest | null {
  if (!target.startsWith("/api/")) return null;
  let url: URL;
  try {
    url = new URL(target, "http://localhost");
  } catch {
    return null;
  }
  // Only a path Next.js routes as it stands: no dot segments or escapes for the URL parser to rewrite.
  if (target.split("?", 1)[0] !== url.pathname) return null;
  try {
    if (url.pathname === LEADERBOARD_API.getLeaderboard.path) {
      return { kind: "json", key: leaderboardBodyKey(parseQuery(LEADERBOARD_API.getLeaderboard.input.query, url.searchParams)) };
    }
    if (url.pathname === LEADERBOARD_API.listEntries.path) {
      return { kind: "json", key: entriesBodyKey(parseQuery(LEADERBOARD_API.listEntries.input.query, url.searchParams)) };
    }
    const entryPath = ENTRY_API_PATH.exec(url.pathname);
    if (entryPath?.[1] === undefined) return null;
    parseQuery(LEADERBOARD_API.getEntry.input.query, url.searchParams);
    const entryId = entryIdSchema.safeParse(entryPath[1]);
    return entryId.success ? { kind: "json", key: entryBodyKey(entryId.data) } : null;
  } catch {
    // An invalid query: the route answers with the 422 that names the problem.
    return null;
  }
}

function targetBodyRequest(target: string): CachedBodyRequest | null {
  const address = pageAddressOf(target);
  if (address === null) return apiBodyRequest(target);
  if (address.kind === "redirect") return { kind: "redirect", location: address.path };
  // A page that does not exist is the route's to render (the app's 404).
  return address.kind === "canonical" ? { kind: "page", key: pageBodyKey(address.path) } : null;
}

/**
 * What each request target (path and query) asks for, remembered: parsing the
 * URL and the query's schema was most of a cache hit's work, and the answer
 * depends on nothing else. Bounded by count and length (least recently used go first).
 */
const NOT_CACHED = "not-cached";
const KNOWN_TARGETS = new LRUCache<string, CachedBodyRequest | typeof NOT_CACHED>({ max: 500 });
const KNOWN_TARGET_MAX_LENGTH = 512;

function knownTargetRequest(target: string): CachedBodyRequest | null {
  const known = KNOWN_TARGETS.get(target);
  if (known !== undefined) return known === NOT_CACHED ? null : known;
  const wanted = targetBodyRequest(target);
  if (target.length <= KNOWN_TARGET_MAX_LENGTH) KNOWN_TARGETS.set(target, wanted ?? NOT_CACHED);
  return wanted;
}

export function cachedBodyRequest(request: IncomingRequestHead): CachedBodyRequest | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const target = request.url ?? "";
  // A client-side navigation of a page (an RSC payload) is Next.js's; the API ignores those headers.
  if (hasRouterHeader(request.headers)) return apiBodyRequest(target);
  return knownTargetRequest(target);
}
