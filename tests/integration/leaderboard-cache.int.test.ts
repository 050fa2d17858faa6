import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getEntry } from "@/app/api/entries/[id]/route";
import { GET as getEntries } from "@/app/api/entries/route";
import { GET as getLeaderboardApi } from "@/app/api/leaderboard/route";
import { db } from "@/lib/platform/db";
import { findPublicReadStamp, setLeaderboardStampTtl } from "@/lib/domain/leaderboard/get-leaderboard";
import { setEntryHidden } from "@/lib/domain/publication/set-entry-hidden";
import { importLeaderboardRelease, openPredictions, storeScoredEntries } from "@/testing/leaderboard/integration-fixtures";
import { clearLocalPublicBodies, sharedVersionHash } from "@/lib/web/public-cache/public-body-cache";
import { getEnv } from "@/lib/platform/env";
import { getSharedRedis } from "@/lib/platform/redis";
import { answerFromPublicCache, type FastPathAnswer } from "@/lib/web/public-cache/public-fast-path";
import { closeSharedRedis } from "@/lib/platform/redis";
import { assertTestDatabase } from "@/testing/local-database";
import { flushTestRedis, resetDatabase } from "./support/reset";
import { waitUntilClockPasses } from "./support/wait";

/**
 * The shared cache of public API bodies: precompressed variants chosen by
 * Accept-Encoding, a strong ETag per variant, and nothing stale after a
 * publish, hide or edit, read back through the routes at once.
 */

// As scripts/server/web-server.mjs runs the app: precompressed bodies go out with their encoding.
vi.hoisted(() => {
  process.env.IRC_PRECOMPRESSED_RESPONSES = "1";
});

function request(path: string, headers: Record<string, string> = {}): Request {
  return new Request(`http://127.0.0.1${path}`, { headers });
}

function params(id: string) {
  return { params: Promise.resolve({ id }) };
}

async function plainText(response: Response): Promise<string> {
  const bytes = Buffer.from(await response.arrayBuffer());
  const encoding = response.headers.get("content-encoding");
  if (encoding === "br") return brotliDecompressSync(bytes).toString("utf8");
  if (encoding === "gzip") return gunzipSync(bytes).toString("utf8");
  return bytes.toString("utf8");
}

let ownerId = "";

beforeAll(async () => {
  assertTestDatabase();
  // The default: a stamp check is reused for up to a second, as in production.
  setLeaderboardStampTtl(1000);
  await resetDatabase();
  await flushTestRedis();
  const release = await importLeaderboardRelease("leaderboard-cache-int", 24);
  const owner = await db.user.create({ data: { email: "owner@leaderboard-cache.invalid", displayName: "Team Cache" } });
  ownerId = owner.id;
  const system = await db.user.create({ data: { email: "system@leaderboard-cache.invalid", displayName: "IRC-Bench maintainers", isSystem: true } });
  const test = release.gold.test;
  await storeScoredEntries(release, [
    { id: "cachealpha", userId: owner.id, split: "test", publication: "PUBLISHED", systemName: "Cache Alpha", track: "open", predictions: openPredictions(test, (i) => (i % 2 === 0 ? "exact" : "miss")) },
    { id: "cachebase", userId: system.id, split: "test", publication: "PRIVATE", isBaseline: true, systemName: "Cache Baseline", track: "open", predictions: openPredictions(test, (i) => (i < 6 ? "exact" : "miss")) },
    { id: "cachelater", userId: owner.id, split: "test", publication: "PENDING", systemName: "Cache Later", track: "open", predictions: openPredictions(test, () => "exact") },
  ]);
});

afterAll(async () => {
  setLeaderboardStampTtl(1000);
  await resetDatabase();
  await flushTestRedis();
  await closeSharedRedis();
});

describe("the shared cache's keys", () => {
  it("hold the secrets that shape public bodies: a restart with another secret never serves the old secret's bodies", async () => {
    await getLeaderboardApi(request("/api/leaderboard?track=open"));
    const env = getEnv();
    const version = sharedVersionHash((await findPublicReadStamp())?.stamp ?? "", env);
    // The write budget's counter (irc:public-body:v1:budget:*) holds no body.
    const keys = (await getSharedRedis().keys("irc:public-body:v1:*")).filter((key) => !key.startsWith("irc:public-body:v1:budget:"));
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key.startsWith(`irc:public-body:v1:${version}:`), key).toBe(true);
    // The same stamp under another session secret, slice secret or signing key is another key.
    for (const changed of [{ NEXTAUTH_SECRET: "another session secret, 32 characters" }, { IRC_SLICE_SECRET: "another slice secret of at least 32 characters" }, { IRC_LOG_SIGNING_KEY: "another signing key" }]) {
      expect(sharedVersionHash("stamp-1", { ...env, ...changed })).not.toBe(sharedVersionHash("stamp-1", env));
    }
    expect(sharedVersionHash("stamp-1", env)).toBe(sharedVersionHash("stamp-1", { ...env }));
    expect(sharedVersionHash("stamp-2", env)).not.toBe(sharedVersionHash("stamp-1", env));
  });
});

describe("precompressed public API bodies", () => {
  it("serves brotli, gzip or plain bodies by Accept-Encoding, each with its own strong ETag", async () => {
    const plain = await getLeaderboardApi(request("/api/leaderboard?track=open"));
    const gzip = await getLeaderboardApi(request("/api/leaderboard?track=open", { "Accept-Encoding": "gzip, deflate" }));
    const br = await getLeaderboardApi(request("/api/leaderboard?track=open", { "Accept-Encoding": "gzip, deflate, br" }));
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("x-irc-content-encoding")).toBe("br");
    for (const response of [plain, gzip, br]) {
      expect(response.headers.get("vary")).toBe("Accept-Encoding");
      expect(response.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]+(-gzip|-br)?"$/);
    }
    expect(new Set([plain, gzip, br].map((response) => response.headers.get("etag"))).size).toBe(3);
    const texts = await Promise.all([plain, gzip, br].map(plainText));
    expect(texts[1]).toBe(texts[0]);
    expect(texts[2]).toBe(texts[0]);
    expect(JSON.parse(texts[0] ?? "").entries.map((row: { system: string }) => row.system)).toContain("Cache Alpha");
  });

  it("answers 304 only to the ETag of the variant it would send", async () => {
    const gzip = await getLeaderboardApi(request("/api/leaderboard?track=open", { "Accept-Encoding": "gzip" }));
    const etag = gzip.headers.get("etag") ?? "";
    const again = await getLeaderboardApi(request("/api/leaderboard?track=open", { "Accept-Encoding": "gzip", "If-None-Match": etag }));
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    const otherVariant = await getLeaderboardApi(request("/api/leaderboard?track=open", { "Accept-Encoding": "br", "If-None-Match": etag }));
    expect(otherVariant.status).toBe(200);
  });

  it("serves the same body to a process that did not make it (from Redis)", async () => {
    const first = await getEntries(request("/api/entries", { "Accept-Encoding": "br" }));
    clearLocalPublicBodies();
    const second = await getEntries(request("/api/entries", { "Accept-Encoding": "br" }));
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(await plainText(second)).toBe(await plainText(first));
  });

  it("shows a published entry within a second, and drops it at once when hidden", async () => {
    const before = await plainText(await getLeaderboardApi(request("/api/leaderboard?track=open", { "Accept-Encoding": "br" })));
    expect(before).not.toContain("Cache Later");
    expect((await getEntry(request("/api/entries/cachelater"), params("cachelater"))).status).toBe(404);

    const publishedAt = Date.now();
    await db.submission.update({ where: { id: "cachelater" }, data: { publication: "PUBLISHED", publishedAt: new Date() } });
    // Every process re-checks the stamp at most a second after its last check, which was before the publish:
    // the first read a second after the publish must see it (earlier reads may too).
    await waitUntilClockPasses(publishedAt + 1000 + 5);
    const text = await plainText(await getLeaderboardApi(request("/api/leaderboard?track=open", { "Accept-Encoding": "gzip" })));
    expect(text).toContain("Cache Later");
    const entry = await getEntry(request("/api/entries/cachelater", { "Accept-Encoding": "br" }), params("cachelater"));
    expect(entry.status).toBe(200);
    expect(await plainText(entry)).toContain("Cache Later");
    const list = await plainText(await getEntries(request("/api/entries", { "Accept-Encoding": "gzip" })));
    expect(list).toContain("Cache Later");

    // With stamp checks on every request, a hide shows on the very next read, in every variant.
    setLeaderboardStampTtl(0);
    await db.submission.update({ where: { id: "cachelater" }, data: { publication: "HIDDEN" } });
    for (const encoding of ["br", "gzip", "identity"]) {
      const text = await plainText(await getLeaderboardApi(request("/api/leaderboard?track=open", { "Accept-Encoding": encoding })));
      expect(text).not.toContain("Cache Later");
    }
    expect((await getEntry(request("/api/entries/cachelater"), params("cachelater"))).status).toBe(404);
  });

  it("shows the writer's own change on its next read, however long stamp checks are reused (read-your-writes)", async () => {
    // A minute: without read-your-writes, the owner would see the board as it was before their hide for that long.
    setLeaderboardStampTtl(60_000);
    const owner = { kind: "user", userId: ownerId, role: "PARTICIPANT", displayName: "Team Cache", via: "session" } as const;
    const read = async () => plainText(await getLeaderboardApi(request("/api/leaderboard?track=open", { "Accept-Encoding": "gzip" })));
    expect(await read()).toContain("Cache Alpha");
    await setEntryHidden(owner, "cachealpha", true);
    expect(await read()).not.toContain("Cache Alpha");
    await setEntryHidden(owner, "cachealpha", false);
    expect(await read()).toContain("Cache Alpha");
    setLeaderboardStampTtl(1000);
  });

  it("shows an edited method description on the entry's API at once", async () => {
    setLeaderboardStampTtl(0);
    const before = await plainText(await getEntry(request("/api/entries/cachealpha", { "Accept-Encoding": "br" }), params("cachealpha")));
    expect(before).not.toContain("A new description");
    await db.submission.update({ where: { id: "cachealpha" }, data: { methodDescription: "A new description" } });
    const after = await plainText(await getEntry(request("/api/entries/cachealpha", { "Accept-Encoding": "br" }), params("cachealpha")));
    expect(after).toContain("A new description");
  });
});

/** What scripts/server/web-server.mjs asks before handing a request to Next.js. */
async function fastPath(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<FastPathAnswer | null> {
  return answerFromPublicCache({ method, url, headers });
}

function fastPathText(answer: FastPathAnswer): string {
  const bytes = answer.body ?? Buffer.alloc(0);
  const encoding = answer.headers["Content-Encoding"];
  if (encoding === "br") return brotliDecompressSync(bytes).toString("utf8");
  if (encoding === "gzip") return gunzipSync(bytes).toString("utf8");
  return bytes.toString("utf8");
}

describe("the web server's fast path for cached public bodies", () => {
  it("answers only with a body a route made for the current data, with the route's variant, ETag and headers", async () => {
    setLeaderboardStampTtl(0);
    clearLocalPublicBodies();
    await flushTestRedis();
    const url = "/api/entries?kind=submissions";
    // Nothing stored yet: the route must make it.
    expect(await fastPath(url, { "accept-encoding": "gzip" })).toBeNull();

    const fromRoute = await getEntries(request(url, { "Accept-Encoding": "gzip" }));
    const answer = await fastPath(url, { "accept-encoding": "gzip" });
    expect(answer?.status).toBe(200);
    expect(answer?.headers["Content-Encoding"]).toBe("gzip");
    expect(answer?.headers["ETag"]).toBe(fromRoute.headers.get("etag"));
    expect(answer?.headers["Cache-Control"]).toBe(fromRoute.headers.get("cache-control"));
    expect(answer?.headers["Content-Type"]).toBe("application/json; charset=utf-8");
    expect(answer?.headers["Vary"]).toBe("rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch, Accept-Encoding");
    expect(answer?.headers["X-Frame-Options"]).toBe("DENY");
    expect(answer?.headers["x-irc-content-encoding"]).toBeUndefined();
    expect(answer?.headers["Content-Length"]).toBe(String(answer?.body?.length));
    expect(fastPathText(answer as FastPathAnswer)).toBe(await plainText(fromRoute));

    // Each encoding is one variant, never a mix; HEAD has the headers and no body; 304 for the variant's own ETag.
    const plain = await fastPath(url);
    expect(plain?.headers["Content-Encoding"]).toBeUndefined();
    expect(plain?.body?.toString("utf8")).toBe(fastPathText(answer as FastPathAnswer));
    const brotli = await fastPath(url, { "accept-encoding": "gzip, br" });
    expect(brotli?.headers["Content-Encoding"]).toBe("br");
    expect(fastPathText(brotli as FastPathAnswer)).toBe(plain?.body?.toString("utf8"));
    const head = await fastPath(url, { "accept-encoding": "gzip" }, "HEAD");
    expect(head?.body).toBeNull();
    expect(head?.headers["Content-Length"]).toBe(answer?.headers["Content-Length"]);
    const notModified = await fastPath(url, { "accept-encoding": "gzip", "if-none-match": answer?.headers["ETag"] ?? "" });
    expect(notModified?.status).toBe(304);
    expect(notModified?.body).toBeNull();

    // Another process (no local copies) answers from Redis.
    clearLocalPublicBodies();
    const fromRedis = await fastPath(url, { "accept-encoding": "br" });
    expect(fromRedis?.headers["ETag"]).toBe(brotli?.headers["ETag"]);
  });

  it("never answers with the body of data that changed: the route makes the new one", async () => {
    setLeaderboardStampTtl(0);
    const url = "/api/entries/cachealpha";
    await getEntry(request(url, { "Accept-Encoding": "br" }), params("cachealpha"));
    const before = await fastPath(url, { "accept-encoding": "br" });
    expect(before).not.toBeNull();
    expect(fastPathText(before as FastPathAnswer)).not.toContain("Described for the fast path");

    await db.submission.update({ where: { id: "cachealpha" }, data: { methodDescription: "Described for the fast path" } });
    expect(await fastPath(url, { "accept-encoding": "br" })).toBeNull();
    expect(await fastPath("/api/leaderboard?track=open", { "accept-encoding": "gzip" })).toBeNull();

    const fromRoute = await getEntry(request(url, { "Accept-Encoding": "br" }), params("cachealpha"));
    expect(await plainText(fromRoute)).toContain("Described for the fast path");
    const after = await fastPath(url, { "accept-encoding": "br" });
    expect(fastPathText(after as FastPathAnswer)).toContain("Described for the fast path");
    expect(after?.headers["ETag"]).not.toBe(before?.headers["ETag"]);
  });

  it("leaves a hidden entry, a bad query and a page without a rendering server to the routes", async () => {
    setLeaderboardStampTtl(0);
    expect(await fastPath("/api/entries/cachelater")).toBeNull();
    expect(await fastPath("/api/leaderboard?track=none")).toBeNull();
    expect(await fastPath("/leaderboard")).toBeNull();
  });
});
