import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { z } from "zod";
import { ApiRefusal, explainRefusal } from "@/lib/client/api-client";
import { ClientError } from "@/lib/client/client-error";
import { formatBytes } from "@/lib/core/format/bytes";
import { writeJson, type CommandContext } from "./context";

export const DOWNLOAD_CHOICES = ["train", "dev", "test", "kb"] as const;
type DownloadChoice = (typeof DOWNLOAD_CHOICES)[number];

/** The headers a dataset download must carry (lib/domain/releases/serve-download.ts). */
const downloadHeadersSchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/, { error: "X-Content-SHA256 is missing or not a SHA-256" }),
  fileName: z.string().regex(/^[A-Za-z0-9._-]+\.jsonl$/, { error: "Content-Disposition has no plain .jsonl file name" }),
});

function fileNameOf(disposition: string | null): string {
  return /filename="([^"]+)"/.exec(disposition ?? "")?.[1] ?? "";
}

/**
 * `download dev|test|kb|train [--out DIR] [--release ID]`: streams the file to
 * DIR under the name the server gives it (it names the release), checks its
 * SHA-256 against the server's, and only then moves it into place.
 */
export async function runDownload(context: CommandContext, options: { what: DownloadChoice; outDir: string; release?: string }): Promise<0> {
  const query = options.release === undefined ? "" : `?release=${encodeURIComponent(options.release)}`;
  const route = `/dataset/download/${options.what}.jsonl${query}`;
  let response: Response;
  try {
    response = await context.api.fetch(route, { isLong: true, headers: { Accept: "text/plain" } });
  } catch (error) {
    if (error instanceof ApiRefusal && error.status === 404) throw new ClientError(2, [`${context.api.baseUrl}: ${error.serverMessage}`]);
    throw error instanceof ApiRefusal ? explainRefusal(error, context.api.baseUrl, context.now()) : error;
  }
  const headers = downloadHeadersSchema.safeParse({ sha256: response.headers.get("x-content-sha256") ?? "", fileName: fileNameOf(response.headers.get("content-disposition")) });
  if (!headers.success || response.body === null) {
    await response.body?.cancel();
    throw new ClientError(2, [`GET ${route}: ${headers.success ? "the answer has no body" : (headers.error.issues[0]?.message ?? "unexpected headers")}; is ${context.api.baseUrl} an IRC-Bench server?`]);
  }
  await mkdir(options.outDir, { recursive: true });
  const target = path.join(options.outDir, headers.data.fileName);
  const partial = `${target}.part`;
  const hash = createHash("sha256");
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>), counter, createWriteStream(partial));
  } catch (error) {
    await rm(partial, { force: true });
    throw new ClientError(2, [`GET ${route}: the download broke off after ${formatBytes(bytes)}: ${error instanceof Error ? error.message : String(error)}. Run the command again.`]);
  }
  const sha256 = hash.digest("hex");
  if (sha256 !== headers.data.sha256) {
    await rm(partial, { force: true });
    throw new ClientError(2, [`${target}: the SHA-256 of what arrived (${sha256}) is not the server's (${headers.data.sha256}); nothing was kept. Run the command again.`]);
  }
  await rename(partial, target);
  if (context.isJson) writeJson(context, { file: target, bytes, sha256 });
  else context.stdout.write(`${target}  ${formatBytes(bytes)}  sha256 ${sha256} (verified)\n`);
  return 0;
}
