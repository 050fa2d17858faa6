import "server-only";
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import type { Env } from "@/lib/env";
import { StoredFileMissingError, assertSha256, type FileStore } from "@/lib/files/file-store";
import { EMPTY_PAYLOAD_SHA256, signRequest, toAmzDate, type SigV4Credentials } from "@/lib/files/sigv4";
import type { StagedFile } from "@/lib/files/staging";

export type S3Options = {
  /** Path-style endpoint: objects are at ENDPOINT/BUCKET/KEY. */
  endpoint: string;
  bucket: string;
  region: string;
  prefix: string;
  credentials: SigV4Credentials;
};

/** How long one S3 request may take before it counts as failed. */
const REQUEST_TIMEOUT_MS = 120_000;

/**
 * Prediction files as objects of an S3-compatible bucket (AWS S3, MinIO,
 * Ceph RGW, R2...), key PREFIX + sha256 + ".jsonl", signed with SigV4 and
 * sent with fetch: no SDK. The payload hash S3 asks for is the file's
 * content address, so uploads are signed without reading the file twice.
 * Files stay under the single-PUT limit (UPLOAD_MAX_BYTES << 5 GiB).
 * The orphan sweeper leaves the bucket alone: an object cannot be marked as
 * in use without copying it, so an unreferenced one (a commit that failed
 * after its PUT) simply stays, costing its bytes and nothing else.
 */
export class S3FileStore implements FileStore {
  readonly kind = "s3" as const;

  constructor(private readonly options: S3Options) {}

  static fromEnv(env: Env): S3FileStore {
    const { IRC_S3_ENDPOINT, IRC_S3_BUCKET, IRC_S3_ACCESS_KEY_ID, IRC_S3_SECRET_ACCESS_KEY } = env;
    if (!IRC_S3_ENDPOINT || !IRC_S3_BUCKET || !IRC_S3_ACCESS_KEY_ID || !IRC_S3_SECRET_ACCESS_KEY) {
      throw new Error("IRC_FILE_STORE=s3 needs IRC_S3_ENDPOINT, IRC_S3_BUCKET, IRC_S3_ACCESS_KEY_ID and IRC_S3_SECRET_ACCESS_KEY");
    }
    return new S3FileStore({
      endpoint: IRC_S3_ENDPOINT,
      bucket: IRC_S3_BUCKET,
      region: env.IRC_S3_REGION,
      prefix: env.IRC_S3_PREFIX,
      credentials: { accessKeyId: IRC_S3_ACCESS_KEY_ID, secretAccessKey: IRC_S3_SECRET_ACCESS_KEY, sessionToken: env.IRC_S3_SESSION_TOKEN },
    });
  }

  objectUrl(sha256: string): URL {
    assertSha256(sha256);
    const base = this.options.endpoint.replace(/\/+$/, "");
    return new URL(`${base}/${this.options.bucket}/${this.options.prefix}${sha256}.jsonl`);
  }

  private async send(method: string, url: URL, init: { payloadHash?: string; headers?: Record<string, string>; body?: ReadableStream<Uint8Array> } = {}): Promise<Response> {
    const payloadHash = init.payloadHash ?? EMPTY_PAYLOAD_SHA256;
    const signed = signRequest({
      method,
      url,
      headers: { ...init.headers, "x-amz-content-sha256": payloadHash },
      payloadHash,
      region: this.options.region,
      service: "s3",
      credentials: this.options.credentials,
      amzDate: toAmzDate(new Date()),
    });
    // fetch sets Host itself from the URL (the same value that was signed).
    const { host: _host, ...headers } = signed.headers;
    return fetch(url, { method, headers, body: init.body, duplex: init.body ? "half" : undefined, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) } as RequestInit);
  }

  private async failure(response: Response, what: string): Promise<Error> {
    const text = (await response.text().catch(() => "")).slice(0, 300);
    const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
    return new Error(`S3 ${what} answered ${response.status}${code ? ` (${code})` : ""}`);
  }

  async put(staged: StagedFile): Promise<void> {
    if (await this.has(staged.sha256)) return;
    const url = this.objectUrl(staged.sha256);
    const body = Readable.toWeb(createReadStream(staged.tempPath)) as ReadableStream<Uint8Array>;
    const response = await this.send("PUT", url, {
      payloadHash: staged.sha256,
      headers: { "content-length": String(staged.bytes), "content-type": "application/x-ndjson" },
      body,
    });
    if (!response.ok) throw await this.failure(response, `PUT ${url.pathname}`);
    await response.body?.cancel();
  }

  async has(sha256: string): Promise<boolean> {
    const url = this.objectUrl(sha256);
    const response = await this.send("HEAD", url);
    await response.body?.cancel();
    if (response.status === 404) return false;
    if (!response.ok) throw await this.failure(response, `HEAD ${url.pathname}`);
    return true;
  }

  async *read(sha256: string): AsyncGenerator<Uint8Array, void, undefined> {
    const url = this.objectUrl(sha256);
    const response = await this.send("GET", url);
    if (response.status === 404) {
      await response.body?.cancel();
      throw new StoredFileMissingError(sha256, `S3 (${url.host})`);
    }
    if (!response.ok || !response.body) throw await this.failure(response, `GET ${url.pathname}`);
    for await (const chunk of Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>)) yield chunk as Uint8Array;
  }
}
