import "server-only";
import { z } from "zod";
import { freeText } from "@/lib/core/text";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import type { DatasetRelease } from "@/lib/platform/generated/prisma";
import { matchesIfNoneMatch } from "@/lib/platform/http/cached-response";
import type { DownloadName } from "@/lib/core/dataset/download-format";
import { getActiveRelease } from "@/lib/domain/releases/get-release";
import { readDownloadDigests } from "@/lib/core/dataset/release-json";
import { streamDownload } from "@/lib/domain/releases/stream-download";

const querySchema = z.object({ release: freeText().min(1).max(64).optional() });

async function resolveRelease(request: Request): Promise<DatasetRelease> {
  const url = new URL(request.url);
  const query = querySchema.safeParse({ release: url.searchParams.get("release") ?? undefined });
  if (!query.success) throw new AppError("validation", "The release parameter must be a release id.");
  if (!query.data.release) return getActiveRelease();
  const release = await db.datasetRelease.findUnique({ where: { id: query.data.release } });
  if (!release) throw new AppError("not_found", `No release with id "${query.data.release}".`);
  return release;
}

/**
 * A download response: the exact bytes hashed at import, a strong ETag (304 on
 * a match), Content-Length, and a file name that says which release it is.
 *
 * Never gzip here: the Next.js node server drops Content-Encoding (and
 * Content-Length) from route-handler responses, so a body compressed here
 * reaches clients as undeclared gzip bytes that no longer match the
 * checksum. Compression belongs to the server or proxy in front.
 */
export async function serveDownload(request: Request, name: DownloadName): Promise<Response> {
  const release = await resolveRelease(request);
  const digest = readDownloadDigests(release.downloads)[name];
  if (!digest) throw new AppError("not_found", `Release ${release.name} ${release.version} has no ${name}.`);
  const etag = `"${digest.sha256}"`;
  const headers = new Headers({
    // text/plain lets the server gzip it for clients that accept gzip (Next.js compresses text/*; application/jsonl is not on its list).
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Disposition": `attachment; filename="${release.name}-${release.version}-${name}"`,
    ETag: etag,
    "Cache-Control": "public, max-age=300",
    "X-Content-SHA256": digest.sha256,
  });
  if (matchesIfNoneMatch(request.headers.get("if-none-match"), etag)) {
    return new Response(null, { status: 304, headers });
  }
  headers.set("Content-Length", String(digest.bytes));
  return new Response(streamDownload(release.id, name), { headers });
}
