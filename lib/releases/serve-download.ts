import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { DatasetRelease } from "@/lib/generated/prisma";
import type { DownloadName } from "@/lib/releases/download-format";
import { getActiveRelease } from "@/lib/releases/get-release";
import type { Digest } from "@/lib/releases/release-summary";
import { streamDownload } from "@/lib/releases/stream-download";

const querySchema = z.object({ release: z.string().min(1).max(64).optional() });

async function resolveRelease(request: Request): Promise<DatasetRelease> {
  const url = new URL(request.url);
  const query = querySchema.safeParse({ release: url.searchParams.get("release") ?? undefined });
  if (!query.success) throw new AppError("validation", "The release parameter must be a release id.");
  if (!query.data.release) return getActiveRelease();
  const release = await db.datasetRelease.findUnique({ where: { id: query.data.release } });
  if (!release) throw new AppError("not_found", `No release with id "${query.data.release}".`);
  return release;
}

function acceptsGzip(request: Request): boolean {
  const header = request.headers.get("accept-encoding") ?? "";
  return header.split(",").some((part) => {
    const [coding, ...params] = part.trim().split(";");
    if (coding?.trim().toLowerCase() !== "gzip") return false;
    const q = params.find((param) => param.trim().startsWith("q="));
    return q === undefined || Number(q.trim().slice(2)) > 0;
  });
}

/**
 * A download response: gzip when the client accepts it, a strong ETag per
 * encoding (304 on a match), Content-Length for the plain bytes, and a file
 * name that says which release it is.
 */
export async function serveDownload(request: Request, name: DownloadName): Promise<Response> {
  const release = await resolveRelease(request);
  const digest = (release.downloads as Record<string, Digest>)[name];
  if (!digest) throw new AppError("not_found", `Release ${release.name} ${release.version} has no ${name}.`);
  const isGzip = acceptsGzip(request);
  const etag = `"${digest.sha256}${isGzip ? "-gzip" : ""}"`;
  const headers = new Headers({
    "Content-Type": "application/jsonl; charset=utf-8",
    "Content-Disposition": `attachment; filename="${release.name}-${release.version}-${name}"`,
    ETag: etag,
    Vary: "Accept-Encoding",
    "Cache-Control": "public, max-age=300",
    "X-Content-SHA256": digest.sha256,
  });
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim() === etag)) {
    return new Response(null, { status: 304, headers });
  }
  const body = streamDownload(release.id, name);
  if (isGzip) {
    headers.set("Content-Encoding", "gzip");
    const gzip = new CompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>;
    return new Response(body.pipeThrough(gzip), { headers });
  }
  headers.set("Content-Length", String(digest.bytes));
  return new Response(body, { headers });
}
