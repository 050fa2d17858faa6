import "server-only";
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/lib/errors";
import { matchesIfNoneMatch } from "@/lib/leaderboard/cached-response";

/**
 * The downloadable offline scorer (protocol section 11): the one-file bundle
 * that scripts/build-cli.mjs writes at build time (npm run build, scripts/up.sh)
 * and `npm run score` runs. The server only reads it; it never builds it.
 */
export const SCORER_FILE_NAME = "irc-bench-score.mjs";
export const SCORER_DOWNLOAD_PATH = `/dataset/download/${SCORER_FILE_NAME}`;
// turbopackIgnore: the bundle is read at run time, never traced into the server build.
export const DEFAULT_SCORER_FILE = path.join(/*turbopackIgnore: true*/ process.cwd(), "dist", "cli", SCORER_FILE_NAME);
export const SCORER_MISSING_MESSAGE =
  "The downloadable scorer has not been built on this server; a maintainer builds it with npm run build:cli (npm run build and npm run up do it too).";

export type ScorerFile = { bytes: Buffer; sha256: string; size: number };

/** Keyed by path, size and mtime: a rebuilt bundle is re-read and re-hashed, an unchanged one is not. */
const cache = new Map<string, { key: string; file: ScorerFile }>();

/** The bundle and its SHA-256, or null when it has not been built. */
export async function readScorerFile(file: string = DEFAULT_SCORER_FILE): Promise<ScorerFile | null> {
  let key: string;
  try {
    const info = await stat(/*turbopackIgnore: true*/ file);
    if (!info.isFile()) return null;
    key = `${info.size}:${info.mtimeMs}`;
  } catch {
    return null;
  }
  const cached = cache.get(file);
  if (cached?.key === key) return cached.file;
  let bytes: Buffer;
  try {
    bytes = await readFile(/*turbopackIgnore: true*/ file);
  } catch {
    return null;
  }
  const scorer = { bytes, sha256: createHash("sha256").update(bytes).digest("hex"), size: bytes.length };
  cache.set(file, { key, file: scorer });
  return scorer;
}

/** GET /dataset/download/irc-bench-score.mjs: the bytes, a strong ETag (304 on a match) and the checksum in a header. */
export async function serveScorer(request: Request, file: string = DEFAULT_SCORER_FILE): Promise<Response> {
  const scorer = await readScorerFile(file);
  if (scorer === null) {
    throw new AppError("not_found", SCORER_MISSING_MESSAGE);
  }
  const etag = `"${scorer.sha256}"`;
  const headers = new Headers({
    "Content-Type": "text/javascript; charset=utf-8",
    "Content-Disposition": `attachment; filename="${SCORER_FILE_NAME}"`,
    ETag: etag,
    "Cache-Control": "public, max-age=300",
    "X-Content-SHA256": scorer.sha256,
  });
  if (matchesIfNoneMatch(request.headers.get("if-none-match"), etag)) {
    return new Response(null, { status: 304, headers });
  }
  headers.set("Content-Length", String(scorer.size));
  return new Response(new Uint8Array(scorer.bytes), { headers });
}
