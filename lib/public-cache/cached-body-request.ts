import { API } from "@/lib/api/operations";
import { parseQuery } from "@/lib/http/parse-input";
import { entriesBodyKey, entryBodyKey, leaderboardBodyKey, pageBodyKey } from "./public-body-keys";
import { cacheablePageRequest } from "./public-page-routing.mjs";
import { entryIdSchema } from "../leaderboard/query-schemas";

/**
 * Which body of the public body cache a request may be answered with by the
 * web server's fast path (public-fast-path.ts), before Next.js sees it:
 *
 * - an anonymous GET or HEAD of a cached public page: exactly
 *   public-page-routing.mjs's rule, the one that sends it to /api/public-page;
 * - GET or HEAD of the public API's cached reads (/api/leaderboard,
 *   /api/entries, /api/entries/ID) with a query the route accepts, parsed by
 *   the route's own schema. These routes are "public": they read no
 *   credentials, so every caller gets the same body.
 *
 * Anything else is null: Next.js answers it as before (every 422 and 404 too).
 */

export type CachedBodyRequest = { kind: "page" | "json"; key: string };

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
    if (url.pathname === API.getLeaderboard.path) {
      return { kind: "json", key: leaderboardBodyKey(parseQuery(API.getLeaderboard.input.query, url.searchParams)) };
    }
    if (url.pathname === API.listEntries.path) {
      return { kind: "json", key: entriesBodyKey(parseQuery(API.listEntries.input.query, url.searchParams)) };
    }
    const entryPath = ENTRY_API_PATH.exec(url.pathname);
    if (entryPath?.[1] === undefined) return null;
    parseQuery(API.getEntry.input.query, url.searchParams);
    const entryId = entryIdSchema.safeParse(entryPath[1]);
    return entryId.success ? { kind: "json", key: entryBodyKey(entryId.data) } : null;
  } catch {
    // An invalid query: the route answers with the 422 that names the problem.
    return null;
  }
}

export function cachedBodyRequest(request: IncomingRequestHead): CachedBodyRequest | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const pagePath = cacheablePageRequest(request);
  if (pagePath !== null) return { kind: "page", key: pageBodyKey(pagePath) };
  return apiBodyRequest(request.url ?? "");
}
