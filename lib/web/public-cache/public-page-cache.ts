import "server-only";
import { request as httpRequest } from "node:http";
import { db } from "@/lib/platform/db";
import { getEnv } from "@/lib/platform/env";
import { findPublicReadStamp } from "@/lib/domain/leaderboard/get-leaderboard";
import { pageBodyKey } from "./public-body-keys";
import { encodeBody, encodedBodyResponse, getPublicBody, type EncodedBody, type EncodedResponseOptions } from "./public-body-cache";

/**
 * Rendered public pages (/leaderboard in all its views, /leaderboard/matrix,
 * /leaderboard/types/TYPE, /entries/ID) for readers who are not signed in,
 * kept in the public body cache beside the API's bodies: gzip and brotli made
 * once, strong ETags, shared by every web process through Redis, and keyed by
 * the version stamp of the public data, so publishing, hiding, reviewing,
 * re-scoring, a baseline change or activating a release is never followed by
 * an old page. Every reader's request for these pages comes here, signed in
 * or not (public-page-routing.mjs), and the page is rendered by an anonymous
 * request of this process to its own private listener (scripts/server/web-server.mjs):
 * what is cached and sent to everyone is exactly what anyone without an
 * account sees, nobody's header or session. The header's account menu is
 * filled in by the browser (components/auth/account-menu.tsx).
 */

type RenderedPage = {
  status: number;
  body: Buffer;
  contentType: string;
  location: string | null;
};

/** Browsers revalidate every time (a cheap 304); the body names nobody, so any cache may keep it. */
const PAGE_CACHE_CONTROL = "public, max-age=0, must-revalidate";
/** Marks a response as the shared anonymous body (tests and operators can tell it from a per-viewer render). */
const SHARED_PAGE_HEADER = "X-Irc-Page-Cache";

const RENDER_TIMEOUT_MS = 60_000;

/** One anonymous render of `pagePath` by this process's private listener. */
function renderPage(origin: string, pagePath: string): Promise<RenderedPage> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${origin}${pagePath}`,
      { method: "GET", headers: { accept: "text/html", "accept-encoding": "identity" }, timeout: RENDER_TIMEOUT_MS },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const location = response.headers.location;
          resolve({
            status: response.statusCode ?? 500,
            body: Buffer.concat(chunks),
            contentType: response.headers["content-type"] ?? "text/html; charset=utf-8",
            location: typeof location === "string" ? location : null,
          });
        });
      },
    );
    outgoing.on("timeout", () => outgoing.destroy(new Error(`rendering ${pagePath} took over ${RENDER_TIMEOUT_MS} ms`)));
    outgoing.on("error", reject);
    outgoing.end();
  });
}

function isCacheableRender(page: RenderedPage): boolean {
  return page.status === 200 && page.contentType.startsWith("text/html");
}

/** A render that is not cached (a redirect, "not found", an error page) goes out as it came, uncached. */
function uncachedResponse(page: RenderedPage): Response {
  const headers = new Headers({ "Content-Type": page.contentType, "Cache-Control": "no-store" });
  if (page.location !== null) headers.set("Location", page.location);
  const body = page.status === 204 || page.status === 304 ? null : new Uint8Array(page.body);
  return new Response(body, { status: page.status, headers });
}

/** How a shared page goes out, from the route or from the web server's fast path (public-fast-path.ts). */
export const PAGE_BODY_OPTIONS: EncodedResponseOptions = {
  contentType: "text/html; charset=utf-8",
  cacheControl: PAGE_CACHE_CONTROL,
  extraHeaders: { [SHARED_PAGE_HEADER]: "shared" },
};

function pageResponse(request: Request, encoded: EncodedBody): Response {
  return encodedBodyResponse(request, encoded, PAGE_BODY_OPTIONS);
}

const ENTRY_PAGE = /^\/entries\/([A-Za-z0-9_-]{1,64})$/;

/**
 * Whether everything the page shows is versioned by the active release's
 * stamp, the key of the cache. An entry page of an earlier release is not:
 * hiding or withdrawing that entry changes no stamp, so its page is served
 * fresh every time and never kept (the entry API follows the same rule).
 */
async function isVersionedByActiveStamp(pagePath: string): Promise<boolean> {
  const entryId = ENTRY_PAGE.exec(pagePath)?.[1];
  if (entryId === undefined) return true;
  const [stamp, entry] = await Promise.all([
    findPublicReadStamp(),
    db.submission.findUnique({ where: { id: entryId }, select: { releaseId: true } }),
  ]);
  return stamp !== null && entry !== null && entry.releaseId === stamp.releaseId;
}

/** A page that is not kept (one that does not exist: the app's 404), rendered anonymously as any other. */
export async function serveUncachedPage(target: string): Promise<Response> {
  const origin = getEnv().IRC_PAGE_RENDER_ORIGIN;
  if (origin === undefined) {
    return new Response("The page cache is served by scripts/server/web-server.mjs (npm start).", { status: 404 });
  }
  return uncachedResponse(await renderPage(origin, target));
}

/**
 * The response for an anonymous request of the canonical page path: the
 * cached body when there is one for the current data, otherwise a fresh
 * render (kept when it is a 200 page).
 */
export async function servePublicPage(request: Request, pagePath: string): Promise<Response> {
  const origin = getEnv().IRC_PAGE_RENDER_ORIGIN;
  if (origin === undefined) {
    return new Response("The page cache is served by scripts/server/web-server.mjs (npm start).", { status: 404 });
  }
  let uncached: RenderedPage | null = null;
  const encoded = await getPublicBody(pageBodyKey(pagePath), async () => {
    const page = await renderPage(origin, pagePath);
    if (!isCacheableRender(page)) {
      uncached = page;
      return null;
    }
    return { body: page.body.toString("utf8"), isCacheable: await isVersionedByActiveStamp(pagePath) };
  });
  if (encoded !== null) return pageResponse(request, encoded);
  // Another request's render found nothing cacheable: render for this one too.
  const page: RenderedPage = uncached ?? (await renderPage(origin, pagePath));
  return isCacheableRender(page) ? pageResponse(request, await encodeBody(page.body.toString("utf8"))) : uncachedResponse(page);
}
