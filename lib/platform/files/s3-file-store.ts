import "server-only";
import { createReadStream } from "node:fs";
import { STATUS_CODES } from "node:http";
import { Readable } from "node:stream";
import { GetObjectCommand, HeadObjectCommand, S3Client, S3ServiceException, type PutObjectCommandInput } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { Env } from "@/lib/platform/env";
import { StoredFileMissingError, assertSha256, type FileStore } from "@/lib/platform/files/store-contract";
import type { StagedFile } from "@/lib/platform/files/staging";

type S3Options = {
  bucket: string;
  /** Key prefix of the prediction files ("submissions/"). */
  prefix: string;
  /** Unset: the SDK's region chain (AWS_REGION, the profile's region). */
  region?: string;
  /** An S3-compatible service (MinIO, Ceph RGW, R2...); unset: AWS's own endpoint for the region. */
  endpoint?: string;
  /** Objects at ENDPOINT/BUCKET/KEY rather than BUCKET.ENDPOINT/KEY. */
  forcePathStyle: boolean;
  /** Static keys; unset: the SDK's default credential chain (environment, web identity, SSO, profiles, ECS/EC2 roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Attempts per request, the first included, under the SDK's standard retry strategy (backoff with jitter). */
  maxAttempts: number;
  /** Files larger than this go up as a multipart upload of parts this size (S3's minimum part is 5 MiB). */
  partBytes: number;
};

/** A connection that does not open, or a socket that stays silent this long, fails the attempt (and the SDK retries it). */
const CONNECTION_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 120_000;
/** Parts of one multipart upload sent at once: the upload holds this many parts in memory. */
const PARTS_IN_FLIGHT = 2;

/**
 * Prediction files as objects of an S3 bucket (AWS S3, or an S3-compatible
 * store with IRC_S3_ENDPOINT), key PREFIX + sha256 + ".jsonl", through the AWS
 * SDK: its credential chain when no keys are configured, its retries, and
 * multipart uploads (lib-storage) above the part size. The parts are buffered,
 * so a failed attempt can be sent again; a file of one part is sent with its
 * SHA-256 (x-amz-checksum-sha256, the file's own address), which AWS checks
 * before storing it, and each part of a larger one with the part's SHA-256.
 *
 * The orphan sweeper leaves the bucket alone: an object cannot be marked as in
 * use without copying it (with versioning on, a copy is a new version), so an
 * unreferenced one (a commit that failed after its upload) simply stays,
 * costing its bytes and nothing else.
 */
export class S3FileStore implements FileStore {
  readonly kind = "s3" as const;
  private readonly client: S3Client;

  constructor(private readonly options: S3Options) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
      maxAttempts: options.maxAttempts,
      // A bucket named in the wrong region still works on AWS (the SDK follows the 301 once).
      followRegionRedirects: true,
      requestHandler: { connectionTimeout: CONNECTION_TIMEOUT_MS, requestTimeout: SOCKET_TIMEOUT_MS },
    });
  }

  static fromEnv(env: Env): S3FileStore {
    const { IRC_S3_BUCKET, IRC_S3_ENDPOINT, IRC_S3_ACCESS_KEY_ID, IRC_S3_SECRET_ACCESS_KEY } = env;
    // lib/platform/env.ts refuses IRC_FILE_STORE=s3 without a bucket; this guards a hand-built Env.
    if (!IRC_S3_BUCKET) throw new Error("IRC_FILE_STORE=s3 needs IRC_S3_BUCKET");
    const pathStyle = env.IRC_S3_FORCE_PATH_STYLE;
    return new S3FileStore({
      bucket: IRC_S3_BUCKET,
      prefix: env.IRC_S3_PREFIX,
      // S3-compatible stores accept any region name and most expect us-east-1; AWS itself needs the bucket's.
      region: env.IRC_S3_REGION ?? (IRC_S3_ENDPOINT ? "us-east-1" : undefined),
      endpoint: IRC_S3_ENDPOINT,
      forcePathStyle: pathStyle === "auto" ? IRC_S3_ENDPOINT !== undefined : pathStyle === "1",
      credentials:
        IRC_S3_ACCESS_KEY_ID && IRC_S3_SECRET_ACCESS_KEY
          ? { accessKeyId: IRC_S3_ACCESS_KEY_ID, secretAccessKey: IRC_S3_SECRET_ACCESS_KEY, sessionToken: env.IRC_S3_SESSION_TOKEN }
          : undefined,
      maxAttempts: env.IRC_S3_MAX_ATTEMPTS,
      partBytes: env.IRC_S3_PART_BYTES,
    });
  }

  keyOf(sha256: string): string {
    assertSha256(sha256);
    return `${this.options.prefix}${sha256}.jsonl`;
  }

  private where(): string {
    return this.options.endpoint ? `S3 (${new URL(this.options.endpoint).host}, bucket ${this.options.bucket})` : `S3 (bucket ${this.options.bucket})`;
  }

  /** An SDK failure as one line naming the request, the key and what S3 said. */
  private failure(error: unknown, what: string, key: string): Error {
    const where = `S3 ${what} ${this.options.bucket}/${key}`;
    if (error instanceof S3ServiceException) {
      const status = error.$metadata.httpStatusCode;
      // A HEAD answer has no body, so no S3 error code: the SDK calls it "Unknown"; the status's name says more.
      const isNamed = error.name !== "Unknown" && error.name !== "UnknownError";
      const code = isNamed ? error.name : (STATUS_CODES[status ?? 0] ?? "no error code");
      const detail = isNamed && error.message && error.message !== error.name ? `: ${error.message}` : "";
      return new Error(`${where} answered ${status ?? "without a status"} (${code})${detail}`, { cause: error });
    }
    const message = error instanceof Error ? error.message : String(error);
    return new Error(`${where} failed: ${message}`, { cause: error });
  }

  async put(staged: StagedFile): Promise<void> {
    if (await this.has(staged.sha256)) return;
    const key = this.keyOf(staged.sha256);
    const isOnePart = staged.bytes <= this.options.partBytes;
    const params: PutObjectCommandInput = {
      Bucket: this.options.bucket,
      Key: key,
      Body: createReadStream(staged.tempPath, { highWaterMark: 1024 * 1024 }),
      ContentType: "application/x-ndjson",
      // One part is one PUT: the whole file's SHA-256. Several: lib-storage passes these
      // parameters to every part, so each part gets its own SHA-256 instead.
      ...(isOnePart ? { ChecksumSHA256: Buffer.from(staged.sha256, "hex").toString("base64") } : { ChecksumAlgorithm: "SHA256" as const }),
    };
    const upload = new Upload({ client: this.client, params, partSize: this.options.partBytes, queueSize: PARTS_IN_FLIGHT });
    try {
      await upload.done();
    } catch (error) {
      throw this.failure(error, "PUT", key);
    }
  }

  async has(sha256: string): Promise<boolean> {
    const key = this.keyOf(sha256);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return true;
    } catch (error) {
      // Without s3:ListBucket, AWS answers 403 rather than 404 for a missing key: that stays an error.
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return false;
      throw this.failure(error, "HEAD", key);
    }
  }

  async *read(sha256: string): AsyncGenerator<Uint8Array, void, undefined> {
    const key = this.keyOf(sha256);
    let body: unknown;
    try {
      ({ Body: body } = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key })));
    } catch (error) {
      if (error instanceof S3ServiceException && (error.name === "NoSuchKey" || error.$metadata.httpStatusCode === 404)) {
        throw new StoredFileMissingError(sha256, this.where());
      }
      throw this.failure(error, "GET", key);
    }
    // In Node.js the SDK answers with the response stream itself (an IncomingMessage).
    if (!(body instanceof Readable)) throw new Error(`S3 GET ${this.options.bucket}/${key} answered without a body stream`);
    try {
      for await (const chunk of body) yield chunk as Uint8Array;
    } finally {
      body.destroy();
    }
  }
}
