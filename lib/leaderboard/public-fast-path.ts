import "server-only";
import type { IncomingHttpHeaders } from "node:http";
import { API } from "@/lib/api/operations";
import { parseQuery } from "@/lib/http/parse-input";
import { securityHeaders } from "@/lib/http/security-headers";
import { encodedBodyAnswer, JSON_BODY_OPTIONS, peekPublicBody, type EncodedResponseOptions } from "./public-body-cache";
import { entriesBodyKey, entryBodyKey, leaderboardBodyKey } from "./public-body-keys";
import { PAGE_BODY_OPTIONS, pageBodyKey } from "./public-page-cache";
import { cacheablePageRequest } from "./public-page-routing.mjs";
import { entryIdSchema } from "./query-schemas";

/**
 * Cache hits answered by the web server itself (scripts/web-server.mjs),
 * before Next.js sees the request: Next.js's own per-request work costs more
 * than everything a hit needs. instrumentation.ts installs the function on
 * globalThis when the server starts, so it runs from Next.js's build of this
 * code: the same stamp check, the same per-process copies of the bodies
 * (public-body-cache.ts) and the same eligibility rules as the routes.
 *
 * What it answers:
 * - an anonymous GET or HEAD of a cached public page (exactly
 *   public-page-routing.mjs's rule, the one that sends it to /api/public-page);
 * - GET or HEAD of the public API bodies (/api/leaderboard, /api/entries,
 *   /api/entries/ID) whose query the route would accept. These routes are
 *   "public": they read no credentials, so every caller gets the same body.
 *
 * and only when the body for the current data stamp is already in this
 * process or in Redis (peekPublicBody). Everything else (a miss, a bad query,
 * a signed-in reader of a page) returns null and goes to Next.js as before,
 * which produces, stores and answers.
 */

export type FastPathRequest = { method?: string; url?: string; headers: IncomingHttpHeaders };

export type FastPathAnswer = { status: number; headers: Record<string, string>; body: Buffer | null };

export type PublicFastPath = (request: FastPathRequest) => Promise<FastPathAnswer | null> | null;

type CachedBodyRequest = { key: string; options: EncodedResponseOptions };

/** Where scripts/web-server.mjs finds the installed fast path. */
export const PUBLIC_FAST_PATH = Symbol.for("irc-bench.public-fast-path");

/**
 * Next.js names these on every App Router response (base-server's
 * setVaryHeader): the same URL also answers client-side navigations with
 * another body, so a shared cache in front must keep them apart.
 */
const NEXT_ROUTER_VARY = "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch";

const ENTRY_API_PATH = /^\/api\/entries\/([^/?]+)$/;

function headerText(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The API body the route would look up, or null when the route must answer (including every 422 and 404). */
function apiBodyRequest(target: string): CachedBodyRequest | null {
  if (!target.startsWith("/api/")) return null;
  let url: URL;
  try {
    url = new URL(target, "http://localhost");
  } catch {
    return null;
  }
  // Only a path Next.js routes as it stands (no dot segments or escapes for the URL parser to rewrite).
  const rawPath = target.split("?", 1)[0];
  if (rawPath !== url.pathname) return null;
  try {
    if (url.pathname === API.getLeaderboard.path) {
      return { key: leaderboardBodyKey(parseQuery(API.getLeaderboard.input.query, url.searchParams)), options: JSON_BODY_OPTIONS };
    }
    if (url.pathname === API.listEntries.path) {
      return { key: entriesBodyKey(parseQuery(API.listEntries.input.query, url.searchParams)), options: JSON_BODY_OPTIONS };
    }
    const entryPath = ENTRY_API_PATH.exec(url.pathname);
    if (entryPath?.[1] === undefined) return null;
    parseQuery(API.getEntry.input.query, url.searchParams);
    const entryId = entryIdSchema.safeParse(entryPath[1]);
    return entryId.success ? { key: entryBodyKey(entryId.data), options: JSON_BODY_OPTIONS } : null;
  } catch {
    // An invalid query: the route answers with the 422 that names the problem.
    return null;
  }
}

/** Which cached body this request may get, or null when it must go to Next.js. */
export function cachedBodyRequest(request: FastPathRequest): CachedBodyRequest | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const pagePath = cacheablePageRequest(request);
  if (pagePath !== null) return { key: pageBodyKey(pagePath), options: PAGE_BODY_OPTIONS };
  return apiBodyRequest(request.url ?? "");
}

async function answerCachedBody(request: FastPathRequest, wanted: CachedBodyRequest): Promise<FastPathAnswer | null> {
  const encoded = await peekPublicBody(wanted.key);
  if (encoded === null) return null;
  const answer = encodedBodyAnswer(
    { acceptEncoding: headerText(request.headers["accept-encoding"]), ifNoneMatch: headerText(request.headers["if-none-match"]) },
    encoded,
    wanted.options,
  );
  const headers: Record<string, string> = {};
  for (const header of securityHeaders(process.env.NODE_ENV !== "production")) headers[header.key] = header.value;
  Object.assign(headers, answer.headers, { Vary: `${NEXT_ROUTER_VARY}, ${answer.headers.Vary ?? "Accept-Encoding"}` });
  return { status: answer.status, headers, body: request.method === "HEAD" ? null : answer.body };
}

/**
 * The answer from the cache, or null for "Next.js answers". Returns null at
 * once (no promise) when the request is not one the cache can answer, so the
 * server hands everything else to Next.js without waiting.
 */
export const answerFromPublicCache: PublicFastPath = (request) => {
  const wanted = cachedBodyRequest(request);
  return wanted === null ? null : answerCachedBody(request, wanted);
};

/** Called once from instrumentation.ts. */
export function installPublicFastPath(): void {
  (globalThis as typeof globalThis & { [PUBLIC_FAST_PATH]?: PublicFastPath })[PUBLIC_FAST_PATH] = answerFromPublicCache;
}
