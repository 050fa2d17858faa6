import "server-only";
import type { IncomingHttpHeaders } from "node:http";
import { accountMenuOf, ACCOUNT_MENU_CACHE_CONTROL, ACCOUNT_MENU_PATH, SIGNED_OUT_MENU, type AccountMenu } from "@/lib/domain/accounts/account-menu";
import { actorFromSession } from "@/lib/domain/accounts/get-actor";
import { getEnv } from "@/lib/platform/env";
import { securityHeaders } from "@/lib/web/http/security-headers";
import { peekPublicReadStamp } from "@/lib/domain/leaderboard/get-leaderboard";
import { chooseBodyEncoding, type BodyEncoding } from "./accept-encoding";
import { cachedBodyRequest, type CachedBodyRequest } from "./cached-body-request";
import { matchesIfNoneMatch } from "../../platform/http/cached-response";
import { encodedBodyAnswer, JSON_BODY_OPTIONS, peekLocalPublicBody, peekPublicBody, type EncodedBody } from "./public-body-cache";
import { PAGE_BODY_OPTIONS } from "./public-page-cache";
import { PAGE_REDIRECT_CACHE_CONTROL, PAGE_REDIRECT_STATUS } from "./page-address";
import { LRUCache } from "lru-cache";
import { hasSessionCookie } from "./public-page-routing.mjs";

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
 * now. Everything else (a miss, a bad query, a client-side navigation)
 * returns null and goes to Next.js as before, which produces, stores and
 * answers. It also answers GET /api/account-menu, what every shared page's
 * header asks: at once without a session cookie (nobody is signed in), else
 * from the session and the user's row, as the route does (the route's Next.js
 * work cost more than both).
 *
 * A hit is sent with no promise in between when the stamp check and the body
 * are already in this process (the common case under load), and everything
 * about the answer but the choice between its variants is made once per body:
 * at 50 connections the per-request work, not the bytes, set the pace.
 */

export type FastPathRequest = { method?: string; url?: string; headers: IncomingHttpHeaders };

export type FastPathAnswer = { status: number; headers: Readonly<Record<string, string>>; body: Buffer | null };

/** An answer now, an answer later, or null for "Next.js answers". */
type PublicFastPath = (request: FastPathRequest) => FastPathAnswer | Promise<FastPathAnswer | null> | null;

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

const ENCODINGS: readonly BodyEncoding[] = ["br", "gzip", "identity"];

/** One variant's answers, headers and all, made once per body. */
type Variant = { etag: string; ok: FastPathAnswer; head: FastPathAnswer; notModified: FastPathAnswer };
type Variants = Record<BodyEncoding, Variant>;
type BodyKind = "page" | "json";

const PREPARED: Record<BodyKind, WeakMap<EncodedBody, Variants>> = { page: new WeakMap(), json: new WeakMap() };

function fastPathAnswer(status: number, answerHeaders: Record<string, string>, body: Buffer | null): FastPathAnswer {
  const headers = { ...SECURITY_HEADERS, ...answerHeaders, Vary: `${NEXT_ROUTER_VARY}, ${answerHeaders.Vary ?? "Accept-Encoding"}` };
  return { status, headers, body };
}

/** encodedBodyAnswer's answers for each encoding, as this server sends them. */
function prepareVariants(encoded: EncodedBody, kind: BodyKind): Variants {
  const options = kind === "page" ? PAGE_BODY_OPTIONS : JSON_BODY_OPTIONS;
  const variants = {} as Variants;
  for (const encoding of ENCODINGS) {
    const acceptEncoding = encoding === "identity" ? null : encoding;
    const full = encodedBodyAnswer({ acceptEncoding, ifNoneMatch: null }, encoded, options);
    const etag = full.headers.ETag ?? "";
    const notModified = encodedBodyAnswer({ acceptEncoding, ifNoneMatch: etag }, encoded, options);
    variants[encoding] = {
      etag,
      ok: fastPathAnswer(full.status, full.headers, full.body),
      head: fastPathAnswer(full.status, full.headers, null),
      notModified: fastPathAnswer(notModified.status, notModified.headers, null),
    };
  }
  return variants;
}

function variantsOf(encoded: EncodedBody, kind: BodyKind): Variants {
  const prepared = PREPARED[kind];
  let variants = prepared.get(encoded);
  if (variants === undefined) {
    variants = prepareVariants(encoded, kind);
    prepared.set(encoded, variants);
  }
  return variants;
}

/** Accept-Encoding values repeat (each browser and client sends one of a few): parsed once each, bounded. */
const CHOSEN_ENCODINGS = new Map<string, BodyEncoding>();
const CHOSEN_ENCODINGS_MAX = 100;

function encodingFor(header: string | undefined): BodyEncoding {
  // Only the plain body unless the server passes a Content-Encoding on (encodedBodyAnswer's rule).
  if (header === undefined || !getEnv().IRC_PRECOMPRESSED_RESPONSES) return "identity";
  let encoding = CHOSEN_ENCODINGS.get(header);
  if (encoding === undefined) {
    encoding = chooseBodyEncoding(header);
    if (CHOSEN_ENCODINGS.size >= CHOSEN_ENCODINGS_MAX) CHOSEN_ENCODINGS.clear();
    CHOSEN_ENCODINGS.set(header, encoding);
  }
  return encoding;
}

function headerText(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

function answerWith(request: FastPathRequest, encoded: EncodedBody, kind: BodyKind): FastPathAnswer {
  const accept = request.headers["accept-encoding"];
  const variant = variantsOf(encoded, kind)[encodingFor(accept)];
  const ifNoneMatch = request.headers["if-none-match"];
  if (ifNoneMatch !== undefined && matchesIfNoneMatch(headerText(ifNoneMatch), variant.etag)) return variant.notModified;
  return request.method === "HEAD" ? variant.head : variant.ok;
}

async function answerCachedBody(request: FastPathRequest, wanted: CachedBodyRequest & { kind: BodyKind }): Promise<FastPathAnswer | null> {
  const encoded = await peekPublicBody(wanted.key);
  return encoded === null ? null : answerWith(request, encoded, wanted.kind);
}

/** The route's redirect of another spelling of a page to its canonical address, made once per target (cached-body-request.ts bounds the targets). */
const REDIRECTS = new LRUCache<string, FastPathAnswer>({ max: 500 });

function redirectAnswer(location: string): FastPathAnswer {
  let answer = REDIRECTS.get(location);
  if (answer === undefined) {
    answer = fastPathAnswer(PAGE_REDIRECT_STATUS, { Location: location, "Cache-Control": PAGE_REDIRECT_CACHE_CONTROL, "Content-Length": "0" }, null);
    REDIRECTS.set(location, answer);
  }
  return answer;
}

/** The account menu as app/api/account-menu/route.ts sends it through Next.js: its own caller's, never stored. */
function accountMenuAnswer(menu: AccountMenu): FastPathAnswer {
  const body = Buffer.from(JSON.stringify(menu), "utf8");
  const headers = { "Cache-Control": ACCOUNT_MENU_CACHE_CONTROL, Vary: "Cookie", "Content-Type": "application/json", "Content-Length": String(body.length) };
  return fastPathAnswer(200, headers, body);
}

const SIGNED_OUT_MENU_ANSWER = accountMenuAnswer(SIGNED_OUT_MENU);

/**
 * GET /api/account-menu: signed out at once without a session cookie; with one, the session's user
 * read fresh (a failure rejects, and Next.js's route answers instead). An Authorization header is
 * the route's to judge (a token signs no browser in; a bad one is a 401).
 */
function accountMenu(request: FastPathRequest): FastPathAnswer | Promise<FastPathAnswer> | null {
  if (request.method !== "GET" || request.headers.authorization !== undefined) return null;
  const { cookie } = request.headers;
  if (!hasSessionCookie(cookie)) return SIGNED_OUT_MENU_ANSWER;
  return actorFromSession(headerText(cookie)).then((actor) => accountMenuAnswer(accountMenuOf(actor)));
}

/**
 * The answer from the cache, or null for "Next.js answers". Null at once (no
 * promise) when the request is not one the cache can answer, so the server
 * hands everything else to Next.js without waiting; the answer itself at once
 * when this process holds the current stamp and the body.
 */
export const answerFromPublicCache: PublicFastPath = (request) => {
  if (request.url === ACCOUNT_MENU_PATH) return accountMenu(request);
  const wanted = cachedBodyRequest(request);
  if (wanted === null) return null;
  if (wanted.kind === "redirect") return redirectAnswer(wanted.location);
  const stamp = peekPublicReadStamp();
  if (stamp === null) return null;
  const encoded = stamp === undefined ? undefined : peekLocalPublicBody(stamp.stamp, wanted.key);
  return encoded === undefined ? answerCachedBody(request, wanted) : answerWith(request, encoded, wanted.kind);
};

/** Called once from instrumentation.ts. */
export function installPublicFastPath(): void {
  (globalThis as typeof globalThis & { [PUBLIC_FAST_PATH]?: PublicFastPath })[PUBLIC_FAST_PATH] = answerFromPublicCache;
}
