import "server-only";
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/lib/core/errors";
import { matchesIfNoneMatch } from "@/lib/platform/http/cached-response";

/**
 * The downloadable command-line tools: the one-file bundles that
 * scripts/build/build-cli.mjs writes at build time (npm run build, scripts/ops/up.sh):
 * the offline scorer (protocol section 11) and the API client. The server
 * only reads them; it never builds them.
 */
export type CliTool = {
  fileName: string;
  downloadPath: string;
  /** Where the bundle is on this server. */
  file: string;
  missingMessage: string;
};

function toolOf(fileName: string, what: string): CliTool {
  return {
    fileName,
    downloadPath: `/dataset/download/${fileName}`,
    // turbopackIgnore: the bundle is read at run time, never traced into the server build.
    file: path.join(/*turbopackIgnore: true*/ process.cwd(), "dist", "cli", fileName),
    missingMessage: `The downloadable ${what} has not been built on this server; a maintainer builds it with npm run build:cli (npm run build and npm run up do it too).`,
  };
}

export const CLI_TOOLS = {
  scorer: toolOf("irc-bench-score.mjs", "scorer"),
  client: toolOf("irc-bench-client.mjs", "client"),
} as const satisfies Record<string, CliTool>;

export type CliToolFile = { bytes: Buffer; sha256: string; size: number };

/** Keyed by path, size and mtime: a rebuilt bundle is re-read and re-hashed, an unchanged one is not. */
const cache = new Map<string, { key: string; file: CliToolFile }>();

/** The bundle and its SHA-256, or null when it has not been built. */
export async function readCliTool(tool: CliTool): Promise<CliToolFile | null> {
  let key: string;
  try {
    const info = await stat(/*turbopackIgnore: true*/ tool.file);
    if (!info.isFile()) return null;
    key = `${info.size}:${info.mtimeMs}`;
  } catch {
    return null;
  }
  const cached = cache.get(tool.file);
  if (cached?.key === key) return cached.file;
  let bytes: Buffer;
  try {
    bytes = await readFile(/*turbopackIgnore: true*/ tool.file);
  } catch {
    return null;
  }
  const file = { bytes, sha256: createHash("sha256").update(bytes).digest("hex"), size: bytes.length };
  cache.set(tool.file, { key, file });
  return file;
}

/** GET /dataset/download/<tool>.mjs: the bytes, a strong ETag (304 on a match) and the checksum in a header. */
export async function serveCliTool(request: Request, tool: CliTool): Promise<Response> {
  const file = await readCliTool(tool);
  if (file === null) {
    throw new AppError("not_found", tool.missingMessage);
  }
  const etag = `"${file.sha256}"`;
  const headers = new Headers({
    "Content-Type": "text/javascript; charset=utf-8",
    "Content-Disposition": `attachment; filename="${tool.fileName}"`,
    ETag: etag,
    "Cache-Control": "public, max-age=300",
    "X-Content-SHA256": file.sha256,
  });
  if (matchesIfNoneMatch(request.headers.get("if-none-match"), etag)) {
    return new Response(null, { status: 304, headers });
  }
  headers.set("Content-Length", String(file.size));
  return new Response(new Uint8Array(file.bytes), { headers });
}
