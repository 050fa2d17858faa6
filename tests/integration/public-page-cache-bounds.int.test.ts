import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Before any import reads the environment: small bounds, so the test can reach them.
vi.hoisted(() => {
  process.env.IRC_PRECOMPRESSED_RESPONSES = "1";
  process.env.PUBLIC_CACHE_MAX_ENTRIES = "3";
  process.env.PUBLIC_CACHE_SHARED_MAX_ENTRIES = "1000";
  process.env.PUBLIC_CACHE_SHARED_MAX_BYTES = String(3 * 1024 * 1024);
});

import { GET as getPublicPage } from "@/app/api/public-page/route";
import { db } from "@/lib/platform/db";
import { setLeaderboardStampTtl } from "@/lib/domain/leaderboard/get-leaderboard";
import { clearLocalPublicBodies, localPublicBodyStats } from "@/lib/web/public-cache/public-body-cache";
import { answerFromPublicCache } from "@/lib/web/public-cache/public-fast-path";
import { cacheablePageRequest, PUBLIC_PAGE_ROUTE } from "@/lib/web/public-cache/public-page-routing.mjs";
import { closeSharedRedis } from "@/lib/platform/redis";
import { importLeaderboardRelease, openPredictions, storeScoredEntries } from "@/testing/leaderboard/integration-fixtures";
import { assertTestDatabase } from "@/testing/local-database";
import { flushTestRedis, resetDatabase } from "./support/reset";

/**
 * A client cannot flood the shared page cache: query strings it makes up are
 * redirected to the page's canonical address (or are a 404) and add nothing
 * to the process or to Redis, and what valid addresses add is bounded in both.
 *
 * The server here does what scripts/server/web-server.mjs does with a request
 * (the fast path first, then the page cache's route, /api/public-page) over
 * real HTTP, against the test Redis and PostgreSQL; pages are rendered by a
 * stand-in for its private listener that makes a 126 KB page per address
 * (as large as a real leaderboard page; random, so it compresses as little),
 * and counts its renders.
 */

const PAGE_BYTES = 126 * 1024;
const ENTRY_ID = "boundsentry";
const renders = new Map<string, number>();
let renderServer: Server;
let webServer: Server;
let origin = "";
let redis: Redis;

function renderStandIn(req: IncomingMessage, res: ServerResponse): void {
  const target = req.url ?? "/";
  renders.set(target, (renders.get(target) ?? 0) + 1);
  // As the app answers: an entity type or an entry made up by the test (t…, e…) is not found.
  const isKnown = !/^\/leaderboard\/types\/t|[?&]type=t|^\/entries\/e/.test(target);
  const filler = randomBytes(PAGE_BYTES * 0.75).toString("base64");
  res.writeHead(isKnown ? 200 : 404, { "Content-Type": "text/html; charset=utf-8" });
  res.end(`<!doctype html><title>${target}</title><p>${isKnown ? "page" : "not found"}</p><!--${filler}-->`);
}

/** scripts/server/web-server.mjs's order: the fast path's answer, else the page cache's route, else nothing here. */
async function serveAsWebServer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const fast = await answerFromPublicCache({ method: req.method, url: req.url, headers: req.headers });
  if (fast !== null) {
    res.writeHead(fast.status, fast.headers);
    res.end(fast.body ?? undefined);
    return;
  }
  const pageTarget = cacheablePageRequest(req);
  if (pageTarget === null) {
    res.writeHead(404).end("not a page of this test");
    return;
  }
  const request = new Request(`${origin}${PUBLIC_PAGE_ROUTE}?path=${encodeURIComponent(pageTarget)}`, { headers: { "accept-encoding": "gzip, br" } });
  const response = await getPublicPage(request, { params: Promise.resolve({}) });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  res.end(Buffer.from(await response.arrayBuffer()));
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function get(target: string): Promise<Response> {
  return fetch(`${origin}${target}`, { redirect: "manual", headers: { "accept-encoding": "gzip, br" } });
}

/** The cache's bodies in Redis (not its budget counters). */
async function sharedBodyKeys(): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, "MATCH", "irc:public-body:v1:*", "COUNT", 1000);
    cursor = next;
    keys.push(...batch.filter((key) => !key.includes(":budget:")));
  } while (cursor !== "0");
  return keys;
}

async function usedMemory(): Promise<number> {
  const info = await redis.info("memory");
  return Number(/^used_memory:(\d+)/m.exec(info)?.[1]);
}

function rendersOf(prefix: string): number {
  let count = 0;
  for (const [target, times] of renders) if (target.startsWith(prefix)) count += times;
  return count;
}

beforeAll(async () => {
  assertTestDatabase();
  renderServer = createServer(renderStandIn);
  process.env.IRC_PAGE_RENDER_ORIGIN = await listen(renderServer);
  webServer = createServer((req, res) => {
    serveAsWebServer(req, res).catch((error: unknown) => {
      console.error("[bounds web server]", error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  origin = await listen(webServer);
  // The stamp is read once a minute here: every request of a flood meets the same stamp.
  setLeaderboardStampTtl(60_000);
  await resetDatabase();
  await flushTestRedis();
  clearLocalPublicBodies();
  redis = new Redis(process.env.REDIS_URL ?? "", { maxRetriesPerRequest: 3 });
  const owner = await db.user.create({ data: { email: "owner@page-bounds.invalid", displayName: "Team Bounds" } });
  const release = await importLeaderboardRelease("page-cache-bounds", 24);
  await storeScoredEntries(release, [
    { id: ENTRY_ID, userId: owner.id, split: "test", publication: "PUBLISHED", systemName: "Bounds Entry", track: "open", predictions: openPredictions(release.gold.test, (i) => (i % 2 === 0 ? "exact" : "miss")) },
  ]);
}, 120_000);

afterAll(async () => {
  setLeaderboardStampTtl(1000);
  await new Promise<void>((resolve) => webServer.close(() => resolve()));
  await new Promise<void>((resolve) => renderServer.close(() => resolve()));
  redis.disconnect();
  await resetDatabase();
  await flushTestRedis();
  await closeSharedRedis();
});

/** The cached pages, each at a canonical address, and 1,000 made-up spellings of it. */
const PAGES = ["/leaderboard", "/leaderboard?track=closed", "/leaderboard/types/person", "/leaderboard/matrix", `/entries/${ENTRY_ID}`];

function madeUpTarget(canonical: string, index: number): string {
  const join = canonical.includes("?") ? "&" : "?";
  const noise = randomBytes(6).toString("hex");
  switch (index % 4) {
    case 0:
      return `${canonical}${join}utm_${index}=${noise}`;
    case 1:
      return `${canonical}${join}track=bogus-${noise}`;
    case 2:
      return `${canonical}${join}page=x${index}&sort=${noise}`;
    default:
      return `${canonical}${join}${noise}`;
  }
}

describe("a flood of made-up query strings", () => {
  it("adds no cache entry anywhere: every answer is a redirect to the canonical address, and Redis grows by less than 5 MB", async () => {
    for (const canonical of PAGES) {
      const response = await get(canonical);
      expect(response.status, canonical).toBe(200);
      expect(response.headers.get("x-irc-page-cache"), canonical).toBe("shared");
    }
    const keysBefore = (await sharedBodyKeys()).sort();
    expect(keysBefore).toHaveLength(PAGES.length);
    const localBefore = localPublicBodyStats();
    const rendersBefore = rendersOf("/");
    const memoryBefore = await usedMemory();

    for (const canonical of PAGES) {
      const statuses = new Map<number, number>();
      for (let index = 0; index < 1000; index += 1) {
        const response = await get(madeUpTarget(canonical, index));
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(response.status === 308 || (response.status >= 400 && response.status < 500), `${canonical} #${index}: ${response.status}`).toBe(true);
        if (response.status === 308) expect(response.headers.get("location")).toBe(canonical);
        await response.arrayBuffer();
      }
      expect([...statuses.keys()], canonical).toEqual([308]);
    }

    const memoryAfter = await usedMemory();
    console.info(`[page-cache-bounds] 5,000 made-up addresses: Redis used_memory ${memoryBefore} -> ${memoryAfter} bytes (${((memoryAfter - memoryBefore) / 1024).toFixed(1)} KiB)`);
    expect(memoryAfter - memoryBefore).toBeLessThan(5 * 1024 * 1024);
    expect((await sharedBodyKeys()).sort()).toEqual(keysBefore);
    expect(localPublicBodyStats().entries).toBeLessThanOrEqual(localBefore.entries);
    expect(rendersOf("/")).toBe(rendersBefore);
  });

  it("keeps nothing for an entity type or an entry that does not exist: a 404 each time", async () => {
    const keysBefore = (await sharedBodyKeys()).sort();
    const memoryBefore = await usedMemory();
    for (let index = 0; index < 200; index += 1) {
      const noise = randomBytes(6).toString("hex");
      for (const target of [`/leaderboard/types/t${noise}`, `/entries/e${noise}`, `/leaderboard/matrix?type=t${noise}`]) {
        const response = await get(target);
        expect(response.status, target).toBe(404);
        await response.arrayBuffer();
      }
    }
    expect((await sharedBodyKeys()).sort()).toEqual(keysBefore);
    expect((await usedMemory()) - memoryBefore).toBeLessThan(5 * 1024 * 1024);
  });
});

describe("canonical addresses", () => {
  it("redirects a valid but non-canonical query (another order, explicit defaults, another spelling) to the canonical address, served from the cache", async () => {
    const canonical = "/leaderboard?q=heron+x&scope=all&track=closed";
    for (const spelling of [
      "/leaderboard?track=closed&scope=all&q=heron%20x",
      "/leaderboard?scope=all&q=heron+x&track=closed&page=1&types=hide&weights=any",
      "/leaderboard?q=heron+x&scope=all&track=closed&track=open",
    ]) {
      const response = await get(spelling);
      expect(response.status, spelling).toBe(308);
      expect(response.headers.get("location"), spelling).toBe(canonical);
    }
    expect((await get("/leaderboard/types/Person?track=open")).headers.get("location")).toBe("/leaderboard/types/person");

    const first = await get(canonical);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-irc-page-cache")).toBe("shared");
    const second = await get(canonical);
    expect(second.status).toBe(200);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(await second.text()).toBe(await first.text());
    expect(renders.get(canonical)).toBe(1);
  });
});

describe("the bounds of what valid addresses add", () => {
  it("keeps at most PUBLIC_CACHE_MAX_ENTRIES bodies in the process, least recently used dropped first, and no more than the shared budget in Redis", async () => {
    const pages = Array.from({ length: 12 }, (_, index) => `/leaderboard?page=${index + 2}`);
    for (const target of pages) {
      expect((await get(target)).status, target).toBe(200);
      expect(localPublicBodyStats().entries).toBeLessThanOrEqual(3);
    }
    // The last three are this process's; the first was dropped from it, and from Redis it was never
    // read again, so the fast path finds it only when the shared budget let it be written there.
    const newest = pages.at(-1) ?? "";
    await get(newest);
    expect(renders.get(newest)).toBe(1);

    const keys = await sharedBodyKeys();
    let sharedBytes = 0;
    for (const key of keys) sharedBytes += Number(await redis.memory("USAGE", key));
    console.info(`[page-cache-bounds] ${keys.length} bodies in Redis, ${sharedBytes} bytes; process: ${JSON.stringify(localPublicBodyStats())}`);
    // 3 MiB of budget (Redis's own measure, MEMORY USAGE): seven or so 126 KB pages with their gzip and brotli variants, not all eighteen asked for.
    expect(sharedBytes).toBeLessThanOrEqual(3 * 1024 * 1024);
    expect(keys.length).toBeLessThan(PAGES.length + 1 + pages.length);
    // A page that is in neither (dropped here, never written there) is rendered again: nothing grows.
    const notShared = pages.find((target) => !keys.some((key) => key.endsWith(`:${target}`)));
    expect(notShared).toBeDefined();
    await get(notShared ?? "");
    expect(renders.get(notShared ?? "")).toBe(2);
    expect(localPublicBodyStats().entries).toBeLessThanOrEqual(3);
  });
});
