import "server-only";
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { getEnv, type Env } from "@/lib/platform/env";
import { getSharedRedis } from "@/lib/platform/redis";
import { chooseBodyEncoding, type BodyEncoding } from "./accept-encoding";
import { matchesIfNoneMatch, PUBLIC_CACHE_CONTROL } from "../../platform/http/cached-response";
import { findPublicReadStamp } from "@/lib/domain/leaderboard/get-leaderboard";
import { logger } from "@/lib/platform/logger";
import { LRUCache } from "lru-cache";

/**
 * Serialised bodies of the public JSON API (leaderboard, entries, entry), each
 * with precompressed gzip and brotli variants, shared by every web process.
 *
 * Keys contain the version stamp of the active release's public data
 * (findPublicReadStamp), read before the body is produced. Publishing, hiding,
 * reviewing or re-scoring changes the stamp, so a body made before the change
 * sits under a key nobody asks for again: nothing is ever deleted, and nothing
 * stale can be served however many processes share the cache. Two layers: a
 * per-process LRU bounded by count and bytes (dropped when the stamp changes)
 * in front of Redis (bodies expire after BODY_TTL_SECONDS, and all processes
 * together add at most a budget of them per BODY_TTL_SECONDS). A Redis fault
 * costs speed, never correctness: the body is produced locally.
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
/** A body larger than this (a 1,000-row API page with its variants is ~25 MiB) is kept in the process only. */
const SHARED_MAX_BYTES = 8 * 1024 * 1024;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * This process's bodies for one stamp: the made ones in an LRU bounded by
 * count and bytes (PUBLIC_CACHE_MAX_ENTRIES, PUBLIC_CACHE_MAX_BYTES; the least
 * recently used go first), and the ones being made, so that each is made once
 * (one per request waiting for it, dropped when made).
 */
type LocalBodies = { stamp: string | null; made: LRUCache<string, EncodedBody>; pending: Map<string, Promise<EncodedBody | null>> };

const LOCAL_BODIES = Symbol.for("irc-bench.public-body-cache");

function encodedBytes(encoded: EncodedBody): number {
  return encoded.identity.length + encoded.gzip.length + encoded.br.length;
}

function newLocalBodies(): LocalBodies {
  const env = getEnv();
  return {
    stamp: null,
    made: new LRUCache<string, EncodedBody>({ max: env.PUBLIC_CACHE_MAX_ENTRIES, maxSize: env.PUBLIC_CACHE_MAX_BYTES, sizeCalculation: encodedBytes }),
    pending: new Map(),
  };
}

/**
 * One copy per process, on globalThis: the web server's fast path
 * (public-fast-path.ts, loaded from instrumentation.ts) and the route
 * handlers can be separate instances of this module in Next.js's server
 * bundles, and must share the bodies and the stamp they belong to. Made at
 * the first use, once the environment is read.
 */
function localBodies(): LocalBodies {
  return ((globalThis as typeof globalThis & { [LOCAL_BODIES]?: LocalBodies })[LOCAL_BODIES] ??= newLocalBodies());
}

/** Keeps this process's copies for `stamp` only. */
function keepOnlyStamp(stamp: string): void {
  const local = localBodies();
  if (local.stamp === stamp) return;
  local.made.clear();
  local.pending.clear();
  local.stamp = stamp;
}

/** The body made for `fullKey` (now the most recently used), or the one being made. */
function findLocal(fullKey: string): Promise<EncodedBody | null> | undefined {
  const local = localBodies();
  const made = local.made.get(fullKey);
  return made === undefined ? local.pending.get(fullKey) : Promise.resolve(made);
}

/** Keeps a made body while its stamp is current (lru-cache keeps none larger than the byte bound). */
function keepLocal(stamp: string, fullKey: string, encoded: EncodedBody): void {
  const local = localBodies();
  if (local.stamp === stamp) local.made.set(fullKey, encoded);
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

/**
 * The Redis key's version part: the data's stamp and the secrets that shape public bodies (the gold version id,
 * and with it section 12's noise, is an HMAC under NEXTAUTH_SECRET; slices follow the slice secret; the log head
 * is signed). A process started with another secret never serves a body made with the old one.
 * @internal exported for its test
 */
export function sharedVersionHash(stamp: string, env: Pick<Env, "NEXTAUTH_SECRET" | "IRC_SLICE_SECRET" | "IRC_LOG_SIGNING_KEY">): string {
  const hash = createHash("sha256");
  for (const part of [stamp, env.NEXTAUTH_SECRET ?? "", env.IRC_SLICE_SECRET ?? "", env.IRC_LOG_SIGNING_KEY ?? ""]) hash.update(`${part.length}:${part}`);
  return hash.digest("base64url");
}

/** Hashed once per stamp: every cache hit builds a key. */
function redisKey(stamp: string, key: string): string {
  if (hashedStamp?.stamp !== stamp) hashedStamp = { stamp, hash: sharedVersionHash(stamp, getEnv()) };
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

/**
 * What this cache may add to Redis per BODY_TTL_SECONDS window, all processes
 * together (PUBLIC_CACHE_SHARED_MAX_ENTRIES bodies, PUBLIC_CACHE_SHARED_MAX_BYTES
 * bytes): each write is counted in the window's budget and made only while the
 * budget lasts, in one script. Every body expires BODY_TTL_SECONDS after it was
 * written, so what the cache holds in Redis was written in this window or the
 * one before: never more than twice the budget, whatever the traffic. Past the
 * budget, bodies are kept in the processes only until the next window. Redis
 * (the scoring queue's, noeviction) never has to evict anything (docs/deploy.md).
 */
const WRITE_WITHIN_BUDGET = `
local entries = redis.call("HINCRBY", KEYS[1], "entries", 1)
local bytes = redis.call("HINCRBY", KEYS[1], "bytes", ARGV[1])
redis.call("EXPIRE", KEYS[1], ARGV[4] * 2)
if entries > tonumber(ARGV[2]) or bytes > tonumber(ARGV[3]) then return 0 end
redis.call("HSET", KEYS[2], "hash", ARGV[5], "identity", ARGV[6], "gzip", ARGV[7], "br", ARGV[8])
redis.call("EXPIRE", KEYS[2], ARGV[4])
return 1`;

/**
 * What a body costs Redis, counted generously: its allocator rounds a large
 * value up to a size class up to a quarter larger (MEMORY USAGE of a 60 KB
 * page was 15% over its bytes), and a key with its hash of four fields adds
 * well under a kilobyte.
 */
const SHARED_ROUNDING = 1.25;
const SHARED_ENTRY_OVERHEAD_BYTES = 1024;

function budgetKey(now: number): string {
  return `${REDIS_PREFIX}budget:${Math.floor(now / (BODY_TTL_SECONDS * 1000))}`;
}

async function writeShared(fullKey: string, encoded: EncodedBody): Promise<void> {
  const { PUBLIC_CACHE_SHARED_MAX_ENTRIES, PUBLIC_CACHE_SHARED_MAX_BYTES } = getEnv();
  const cost = Math.ceil(encodedBytes(encoded) * SHARED_ROUNDING) + fullKey.length + SHARED_ENTRY_OVERHEAD_BYTES;
  try {
    await getSharedRedis().eval(
      WRITE_WITHIN_BUDGET,
      2,
      budgetKey(Date.now()),
      fullKey,
      cost,
      PUBLIC_CACHE_SHARED_MAX_ENTRIES,
      PUBLIC_CACHE_SHARED_MAX_BYTES,
      BODY_TTL_SECONDS,
      encoded.hash,
      encoded.identity,
      encoded.gzip,
      encoded.br,
    );
  } catch (error) {
    logger.warn({ err: error }, "public body cache: Redis write failed");
  }
}

async function loadOrProduce(fullKey: string, produced: () => Promise<ProducedBody>): Promise<{ encoded: EncodedBody; isKept: boolean } | null> {
  const shared = await readShared(fullKey);
  if (shared !== null) return { encoded: shared, isKept: true };
  const body = await produced();
  if (body === null) return null;
  const encoded = await encodeBody(body.body);
  if (body.isCacheable && encodedBytes(encoded) <= SHARED_MAX_BYTES) await writeShared(fullKey, encoded);
  return { encoded, isKept: body.isCacheable };
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
  const existing = findLocal(fullKey);
  if (existing !== undefined) return existing;
  const loading = loadOrProduce(fullKey, produce);
  const pending = loading.then((loaded) => loaded?.encoded ?? null);
  const { pending: making } = localBodies();
  making.set(fullKey, pending);
  // Failures, "nothing here" and bodies that must not be kept are not: the next request asks again.
  loading.then(
    (loaded) => {
      if (making.get(fullKey) !== pending) return;
      making.delete(fullKey);
      if (loaded?.isKept === true) keepLocal(stamp.stamp, fullKey, loaded.encoded);
    },
    () => {
      if (making.get(fullKey) === pending) making.delete(fullKey);
    },
  );
  return pending;
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
  // A body a route is producing right now: wait for it (null when it found nothing cacheable).
  const existing = findLocal(fullKey);
  if (existing !== undefined) return existing;
  const shared = await readShared(fullKey);
  if (shared === null) return null;
  // Kept only while its stamp is still current and no route made it meanwhile.
  if (!localBodies().made.has(fullKey)) keepLocal(stamp.stamp, fullKey, shared);
  return shared;
}

/**
 * peekPublicBody without waiting: the body for `key` at `stamp` (the current
 * one, from peekPublicReadStamp) when this process already holds it made,
 * undefined otherwise (the caller then takes peekPublicBody's path).
 */
export function peekLocalPublicBody(stamp: string, key: string): EncodedBody | undefined {
  const local = localBodies();
  if (local.stamp !== stamp) return undefined;
  return local.made.get(redisKey(stamp, key));
}

/** Drops this process's copies (tests that rewrite the database under one stamp). @internal exported for its tests. */
export function clearLocalPublicBodies(): void {
  const local = localBodies();
  local.made.clear();
  local.pending.clear();
  local.stamp = null;
}

/** What this process holds. @internal exported for the tests of its bounds. */
export function localPublicBodyStats(): { entries: number; bytes: number } {
  const { made } = localBodies();
  return { entries: made.size, bytes: made.calculatedSize };
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
