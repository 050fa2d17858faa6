import "server-only";
import type { IncomingHttpHeaders } from "node:http";
import { securityHeaders } from "@/lib/http/security-headers";
import { cachedBodyRequest, type CachedBodyRequest } from "./cached-body-request";
import { encodedBodyAnswer, JSON_BODY_OPTIONS, peekPublicBody } from "./public-body-cache";
import { PAGE_BODY_OPTIONS } from "./public-page-cache";

/**
 * Cache hits answered by the web server itself (scripts/server/web-server.mjs),
 * before Next.js sees the request: Next.js's own per-request work costs more
 * than everything a hit needs. instrumentation.ts installs the function on
 * globalThis when the server starts, so it runs from Next.js's build of this
 * code, with the same stamp check and the same per-process copies of the
 * bodies (public-body-cache.ts) as the routes.
 *
 * It answers the requests cached-body-request.ts names, and only when the
 * body for the current data stamp is already in this process or in Redis
 * (peekPublicBody): a body some route made under the stamp that is current
 * now. Everything else (a miss, a bad query, a signed-in reader of a page)
 * returns null and goes to Next.js as before, which produces, stores and
 * answers.
 */

type FastPathRequest = { method?: string; url?: string; headers: IncomingHttpHeaders };

export type FastPathAnswer = { status: number; headers: Record<string, string>; body: Buffer | null };

type PublicFastPath = (request: FastPathRequest) => Promise<FastPathAnswer | null> | null;

/** Where scripts/server/web-server.mjs finds the installed fast path. */
const PUBLIC_FAST_PATH = Symbol.for("irc-bench.public-fast-path");

/**
 * Next.js names these on every App Router response (base-server's
 * setVaryHeader): the same URL also answers client-side navigations with
 * another body, so a shared cache in front must keep them apart.
 */
const NEXT_ROUTER_VARY = "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch";

/** The headers next.config.ts gives every response (the module loads after web-server.mjs set NODE_ENV). */
const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.fromEntries(
  securityHeaders(process.env.NODE_ENV !== "production").map((header) => [header.key, header.value]),
);

function headerText(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

async function answerCachedBody(request: FastPathRequest, wanted: CachedBodyRequest): Promise<FastPathAnswer | null> {
  const encoded = await peekPublicBody(wanted.key);
  if (encoded === null) return null;
  const answer = encodedBodyAnswer(
    { acceptEncoding: headerText(request.headers["accept-encoding"]), ifNoneMatch: headerText(request.headers["if-none-match"]) },
    encoded,
    wanted.kind === "page" ? PAGE_BODY_OPTIONS : JSON_BODY_OPTIONS,
  );
  const headers: Record<string, string> = { ...SECURITY_HEADERS, ...answer.headers, Vary: `${NEXT_ROUTER_VARY}, ${answer.headers.Vary ?? "Accept-Encoding"}` };
  return { status: answer.status, headers, body: request.method === "HEAD" ? null : answer.body };
}

/**
 * The answer from the cache, or null for "Next.js answers". Null at once (no
 * promise) when the request is not one the cache can answer, so the server
 * hands everything else to Next.js without waiting.
 */
export const answerFromPublicCache: PublicFastPath = (request) => {
  const wanted = cachedBodyRequest(request);
  return wanted === null ? null : answerCachedBody(request, wanted);
};

/** Called once from instrumentation.ts. */
export function installPublicFastPath(): void {
  (globalThis as typeof globalThis & { [PUBLIC_FAST_PATH]?: PublicFastPath })[PUBLIC_FAST_PATH] = answerFromPublicCache;
}
