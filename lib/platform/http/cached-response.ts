import "server-only";
import { createHash } from "node:crypto";
import type { RenderedExport } from "@/lib/core/leaderboard/export-tables";

/**
 * HTTP caching of the public, read-only leaderboard API: short shared and
 * private lifetimes (results change when an entry is published or re-scored),
 * a strong ETag, and 304 Not Modified for a matching If-None-Match.
 */

export const PUBLIC_CACHE_CONTROL = "public, max-age=30, s-maxage=60, stale-while-revalidate=300";

export function etagOf(body: string): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

/** RFC 9110 weak comparison of If-None-Match with our ETag ("*" matches anything). */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (header === null) return false;
  const bare = etag.replace(/^W\//, "");
  return header
    .split(",")
    .map((candidate) => candidate.trim())
    .some((candidate) => candidate === "*" || candidate.replace(/^W\//, "") === bare);
}

function cacheHeaders(etag: string, contentType: string): Headers {
  return new Headers({
    "Content-Type": contentType,
    "Cache-Control": PUBLIC_CACHE_CONTROL,
    ETag: etag,
    Vary: "Accept-Encoding",
  });
}

function cachedBodyResponse(request: Request, body: string, etag: string, contentType: string, extra: Record<string, string> = {}): Response {
  const headers = cacheHeaders(etag, contentType);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  if (matchesIfNoneMatch(request.headers.get("if-none-match"), etag)) {
    headers.delete("Content-Type");
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { status: 200, headers });
}

/** @internal exported for its tests; the platform does not call it. */
export function cachedJsonResponse(request: Request, body: string, etag: string = etagOf(body)): Response {
  return cachedBodyResponse(request, body, etag, "application/json; charset=utf-8");
}

export function downloadResponse(request: Request, rendered: RenderedExport): Response {
  return cachedBodyResponse(request, rendered.body, etagOf(rendered.body), rendered.contentType, {
    "Content-Disposition": `attachment; filename="${rendered.filename.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
  });
}
