import "server-only";
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { getEnv } from "@/lib/platform/env";
import { getSharedRedis } from "@/lib/platform/redis";
import { chooseBodyEncoding, type BodyEncoding } from "./accept-encoding";
import { matchesIfNoneMatch, PUBLIC_CACHE_CONTROL } from "../../platform/http/cached-response";
import { findPublicReadStamp } from "@/lib/domain/leaderboard/get-leaderboard";
import { logger } from "@/lib/platform/logger";

/**
 * Serialised bodies of the public JSON API (leaderboard, entries, entry), each
 * with precompressed gzip and brotli variants, shared by every web process.
 *
 * Keys contain the version stamp of the active release's public data
 * (findPublicReadStamp), read before the body is produced. Publishing, hiding,
 * reviewing or re-scoring changes the stamp, so a body made before the change
 * sits under a key nobody asks for again: nothing is ever deleted, and nothing
 * stale can be served however many processes share the cache. Two layers: a
 * per-process map (dropped when the stamp changes) in front of Redis (bodies
 * expire after BODY_TTL_SECONDS). A Redis fault costs speed, never correctness:
 * the body is produced locally.
 */

export type EncodedBody = {
  /** SHA-256 of the plain body; each variant's strong ETag is derived from it. */
  hash: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
};

/** What a producer made: null for "nothing public here" (never cached). */
export type ProducedBody = { body: string; isCacheable: boolean } | null;

const REDIS_PREFIX = "irc:public-body:v1:";
const BODY_TTL_SECONDS = 600;
/**
 * Memory bounds: any offset is a new key and one 1,000-row page is ~25 MiB with
 * its variants, so the per-process copies are limited by bytes (least recently
 * used go first) and Redis holds only bodies up to SHARED_MAX_BYTES.
 */
const LOCAL_MAX_BYTES = 128 * 1024 * 1024;
const SHARED_MAX_BYTES = 8 * 1024 * 1024;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** `encoded`: the body once it is made, for readers that must not wait (peekLocalPublicBody). */
type LocalEntry = { pending: Promise<EncodedBody | null>; bytes: number; encoded?: EncodedBody };

type LocalBodies = { stamp: string | null; entries: Map<string, LocalEntry>; bytes: number };

const LOCAL_BODIES = Symbol.for("irc-bench.public-body-cache");
/**
 * One copy per process, on globalThis: the web server's fast path
 * (public-fast-path.ts, loaded from instrumentation.ts) and the route
 * handlers can be separate instances of this module in Next.js's server
 * bundles, and must share the bodies and the stamp they belong to.
 */
const local: LocalBodies = ((globalThis as typeof globalThis & { [LOCAL_BODIES]?: LocalBodies })[LOCAL_BODIES] ??= {
  stamp: null,
  entries: new Map(),
  bytes: 0,
});

function encodedBytes(encoded: EncodedBody): number {
  return encoded.identity.length + encoded.gzip.length + encoded.br.length;
}

function dropLocal(fullKey: string): void {
  const entry = local.entries.get(fullKey);
  if (entry === undefined) return;
  local.bytes -= entry.bytes;
  local.entries.delete(fullKey);
}

function clearLocal(): void {
  local.entries.clear();
  local.bytes = 0;
}

/** Keeps this process's copies for `stamp` only. */
function keepOnlyStamp(stamp: string): void {
  if (local.stamp === stamp) return;
  clearLocal();
  local.stamp = stamp;
}

/** Counts a finished body against the budget and evicts the least recently used until it fits. */
function chargeLocal(fullKey: string, entry: LocalEntry, encoded: EncodedBody): void {
  if (local.entries.get(fullKey) !== entry) return;
  entry.encoded = encoded;
  entry.bytes = encodedBytes(encoded);
  local.bytes += entry.bytes;
  for (const [key, candidate] of local.entries) {
    if (local.bytes <= LOCAL_MAX_BYTES) break;
    if (candidate.bytes > 0) dropLocal(key);
  }
}

/** The local entry, marked most recently used (eviction walks the map from the front). */
function touchLocal(fullKey: string): LocalEntry | undefined {
  const existing = local.entries.get(fullKey);
  if (existing === undefined) return undefined;
  local.entries.delete(fullKey);
  local.entries.set(fullKey, existing);
  return existing;
}

export async function encodeBody(body: string): Promise<EncodedBody> {
  const identity = Buffer.from(body, "utf8");
  // Compressed once per version and shared, so the slower, smaller settings pay off.
  const [gzipped, brotli] = await Promise.all([
    gzipAsync(identity, { level: 9 }),
    brotliAsync(identity, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
  ]);
  const hash = createHash("sha256").update(identity).digest("base64url").slice(0, 27);
  return { hash, identity, gzip: gzipped, br: brotli };
}

let hashedStamp: { stamp: string; hash: string } | null = null;

/** Hashed once per stamp: every cache hit builds a key. */
function redisKey(stamp: string, key: string): string {
  if (hashedStamp?.stamp !== stamp) hashedStamp = { stamp, hash: createHash("sha256").update(stamp).digest("base64url") };
  return `${REDIS_PREFIX}${hashedStamp.hash}:${key}`;
}

async function readShared(fullKey: string): Promise<EncodedBody | null> {
  try {
    const fields = await getSharedRedis().hgetallBuffer(fullKey);
    const hash = fields.hash?.toString("utf8");
    if (hash === undefined || fields.identity === undefined || fields.gzip === undefined || fields.br === undefined) return null;
    return { hash, identity: fields.identity, gzip: fields.gzip, br: fields.br };
  } catch (error) {
    logger.warn({ err: error }, "public body cache: Redis read failed; producing the body locally");
    return null;
  }
}

async function writeShared(fullKey: string, encoded: EncodedBody): Promise<void> {
  try {
    await getSharedRedis()
      .multi()
      .hset(fullKey, { hash: encoded.hash, identity: encoded.identity, gzip: encoded.gzip, br: encoded.br })
      .expire(fullKey, BODY_TTL_SECONDS)
      .exec();
  } catch (error) {
    logger.warn({ err: error }, "public body cache: Redis write failed");
  }
}

async function loadOrProduce(fullKey: string, produce: () => Promise<ProducedBody>): Promise<EncodedBody | null> {
  const shared = await readShared(fullKey);
  if (shared !== null) return shared;
  const produced = await produce();
  if (produced === null) return null;
  const encoded = await encodeBody(produced.body);
  if (!produced.isCacheable) dropLocal(fullKey);
  else if (encodedBytes(encoded) <= SHARED_MAX_BYTES) await writeShared(fullKey, encoded);
  return encoded;
}

/**
 * The encoded body for `key` (a canonical description of the request: route
 * and parsed query) at the current stamp, produced at most once per process
 * and stamp while it stays cached. Null when the producer found nothing.
 */
export async function getPublicBody(key: string, produce: () => Promise<ProducedBody>): Promise<EncodedBody | null> {
  const stamp = await findPublicReadStamp();
  if (stamp === null) {
    const produced = await produce();
    return produced === null ? null : encodeBody(produced.body);
  }
  keepOnlyStamp(stamp.stamp);
  const fullKey = redisKey(stamp.stamp, key);
  const existing = touchLocal(fullKey);
  if (existing !== undefined) return existing.pending;
  const entry: LocalEntry = { pending: loadOrProduce(fullKey, produce), bytes: 0 };
  local.entries.set(fullKey, entry);
  // Failures and "nothing here" are not kept: the next request asks again.
  entry.pending.then(
    (encoded) => {
      if (encoded === null) {
        if (local.entries.get(fullKey) === entry) dropLocal(fullKey);
        return;
      }
      chargeLocal(fullKey, entry, encoded);
    },
    () => {
      if (local.entries.get(fullKey) === entry) dropLocal(fullKey);
    },
  );
  return entry.pending;
}

/**
 * The body for `key` at the current stamp when this process or Redis already
 * holds it; never produces one. Null means "ask the route": it produces the
 * body (or finds there is none) itself. The web server's fast path
 * (public-fast-path.ts) reads through this, so it can only ever send a body
 * some route made under the stamp that is current now.
 */
export async function peekPublicBody(key: string): Promise<EncodedBody | null> {
  const stamp = await findPublicReadStamp();
  if (stamp === null) return null;
  keepOnlyStamp(stamp.stamp);
  const fullKey = redisKey(stamp.stamp, key);
  const existing = touchLocal(fullKey);
  // A body a route is producing right now: wait for it (null when it found nothing cacheable).
  if (existing !== undefined) return existing.pending;
  const shared = await readShared(fullKey);
  if (shared === null) return null;
  // Kept only while its stamp is still current and no route made an entry for it meanwhile.
  if (local.stamp === stamp.stamp && !local.entries.has(fullKey)) {
    const entry: LocalEntry = { pending: Promise.resolve(shared), bytes: 0 };
    local.entries.set(fullKey, entry);
    chargeLocal(fullKey, entry, shared);
  }
  return shared;
}

/**
 * peekPublicBody without waiting: the body for `key` at `stamp` (the current
 * one, from peekPublicReadStamp) when this process already holds it made,
 * undefined otherwise (the caller then takes peekPublicBody's path).
 */
export function peekLocalPublicBody(stamp: string, key: string): EncodedBody | undefined {
  if (local.stamp !== stamp) return undefined;
  return touchLocal(redisKey(stamp, key))?.encoded;
}

/** Drops this process's copies (tests that rewrite the database under one stamp). @internal exported for its tests. */
export function clearLocalPublicBodies(): void {
  clearLocal();
  local.stamp = null;
}

function etagFor(encoded: EncodedBody, encoding: BodyEncoding): string {
  return encoding === "identity" ? `"${encoded.hash}"` : `"${encoded.hash}-${encoding}"`;
}

/**
 * Next.js (16.4) drops Content-Encoding, Content-Length and Transfer-Encoding
 * from every route handler's response (FORBIDDEN_HEADERS in
 * next/dist/server/send-response.js) and then compresses what is left, so a
 * precompressed body would go out double-encoded. scripts/server/web-server.mjs
 * turns this header into Content-Encoding before Next.js's compression looks
 * (it skips a response whose Content-Encoding is not identity).
 */
const PRECOMPRESSED_HEADER = "x-irc-content-encoding";

export type EncodedResponseOptions = {
  contentType: string;
  cacheControl: string;
  /** Request headers the body depends on besides Accept-Encoding. */
  vary?: readonly string[];
  extraHeaders?: Record<string, string>;
};

/** The request headers an encoded answer depends on. */
type EncodedRequestHeaders = { acceptEncoding: string | null; ifNoneMatch: string | null };

/** Status, headers and body of an answer, before it becomes a Web Response or a Node.js one. */
type EncodedAnswer = {
  status: 200 | 304;
  headers: Record<string, string>;
  /** The chosen variant; null for a 304. */
  body: Buffer | null;
  encoding: BodyEncoding;
};

/**
 * The variant the client accepts, with its own strong ETag, Content-Encoding
 * and Vary: Accept-Encoding; 304 when If-None-Match names that variant. Only
 * the plain body unless the server passes a Content-Encoding on
 * (IRC_PRECOMPRESSED_RESPONSES, set by scripts/server/web-server.mjs).
 */
export function encodedBodyAnswer(request: EncodedRequestHeaders, encoded: EncodedBody, options: EncodedResponseOptions): EncodedAnswer {
  const encoding = getEnv().IRC_PRECOMPRESSED_RESPONSES ? chooseBodyEncoding(request.acceptEncoding) : "identity";
  const etag = etagFor(encoded, encoding);
  const headers: Record<string, string> = {
    ...options.extraHeaders,
    "Cache-Control": options.cacheControl,
    ETag: etag,
    Vary: ["Accept-Encoding", ...(options.vary ?? [])].join(", "),
  };
  if (matchesIfNoneMatch(request.ifNoneMatch, etag)) {
    return { status: 304, headers, body: null, encoding };
  }
  const body = encoded[encoding];
  headers["Content-Type"] = options.contentType;
  headers["Content-Length"] = String(body.length);
  if (encoding !== "identity") headers["Content-Encoding"] = encoding;
  return { status: 200, headers, body, encoding };
}

/** encodedBodyAnswer as a route handler's Response. */
export function encodedBodyResponse(request: Request, encoded: EncodedBody, options: EncodedResponseOptions): Response {
  const answer = encodedBodyAnswer(
    { acceptEncoding: request.headers.get("accept-encoding"), ifNoneMatch: request.headers.get("if-none-match") },
    encoded,
    options,
  );
  const headers = new Headers(answer.headers);
  if (answer.body === null) return new Response(null, { status: answer.status, headers });
  if (answer.encoding !== "identity") headers.set(PRECOMPRESSED_HEADER, answer.encoding);
  const body = answer.body;
  // zlib and Buffer.from give buffers over a plain ArrayBuffer, never a SharedArrayBuffer.
  return new Response(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.length), { status: answer.status, headers });
}

export const JSON_BODY_OPTIONS: EncodedResponseOptions = { contentType: "application/json; charset=utf-8", cacheControl: PUBLIC_CACHE_CONTROL };

/** A public API body: JSON, cacheable for a short while by browsers and shared caches. */
export function encodedJsonResponse(request: Request, encoded: EncodedBody): Response {
  return encodedBodyResponse(request, encoded, JSON_BODY_OPTIONS);
}
