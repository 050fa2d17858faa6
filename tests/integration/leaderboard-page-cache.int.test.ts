import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { setLeaderboardStampTtl } from "@/lib/leaderboard/get-leaderboard";
import { clearLocalPublicBodies } from "@/lib/public-cache/public-body-cache";
import { answerFromPublicCache } from "@/lib/public-cache/public-fast-path";
import { servePublicPage } from "@/lib/public-cache/public-page-cache";
import { closeSharedRedis } from "@/lib/redis";
import { importLeaderboardRelease, openPredictions, storeScoredEntries } from "@/testing/leaderboard/integration-fixtures";
import { assertTestDatabase } from "@/testing/local-database";
import { flushTestRedis, resetDatabase } from "./support/reset";

/**
 * The shared page cache keeps only pages the active release's stamp versions.
 * An entry page of an earlier release is not one of them: hiding that entry
 * changes no stamp, so a kept copy would go on being served (by the web
 * server's fast path too) after the takedown. Pages are rendered here by a
 * stand-in for the web server's private listener that counts its renders.
 */

const renders = new Map<string, number>();
let renderServer: Server;

async function page(path: string): Promise<Response> {
  return servePublicPage(new Request(`http://127.0.0.1${path}`), path);
}

beforeAll(async () => {
  assertTestDatabase();
  renderServer = createServer((req, res) => {
    const path = req.url ?? "/";
    renders.set(path, (renders.get(path) ?? 0) + 1);
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><title>${path}</title><p>render ${renders.get(path)} of ${path}</p>`);
  });
  await new Promise<void>((resolve) => renderServer.listen(0, "127.0.0.1", resolve));
  const address = renderServer.address();
  if (address === null || typeof address === "string") throw new Error("the render stand-in has no port");
  process.env.IRC_PAGE_RENDER_ORIGIN = `http://127.0.0.1:${address.port}`;
  setLeaderboardStampTtl(0);
  await resetDatabase();
  await flushTestRedis();
  clearLocalPublicBodies();
  const owner = await db.user.create({ data: { email: "owner@page-cache.invalid", displayName: "Team Pages" } });
  const earlier = await importLeaderboardRelease("page-cache-earlier", 24);
  await storeScoredEntries(earlier, [
    { id: "pageold", userId: owner.id, split: "test", publication: "PUBLISHED", systemName: "Old Board Entry", track: "open", predictions: openPredictions(earlier.gold.test, (i) => (i % 2 === 0 ? "exact" : "miss")) },
  ]);
  const active = await importLeaderboardRelease("page-cache-active", 24);
  await storeScoredEntries(active, [
    { id: "pagenew", userId: owner.id, split: "test", publication: "PUBLISHED", systemName: "Active Board Entry", track: "open", predictions: openPredictions(active.gold.test, (i) => (i % 3 === 0 ? "exact" : "miss")) },
  ]);
}, 120_000);

afterAll(async () => {
  setLeaderboardStampTtl(1000);
  await new Promise<void>((resolve) => renderServer.close(() => resolve()));
  await resetDatabase();
  await flushTestRedis();
  await closeSharedRedis();
});

describe("which rendered pages the shared cache keeps", () => {
  it("keeps an entry page of the active release: rendered once, then served by the route and the fast path", async () => {
    expect((await page("/entries/pagenew")).status).toBe(200);
    expect(await (await page("/entries/pagenew")).text()).toContain("render 1 of /entries/pagenew");
    expect(renders.get("/entries/pagenew")).toBe(1);
    const answer = await answerFromPublicCache({ method: "GET", url: "/entries/pagenew", headers: {} });
    expect(answer?.status).toBe(200);
  });

  it("never keeps an entry page of an earlier release, so hiding that entry takes effect at the next read", async () => {
    expect(await (await page("/entries/pageold")).text()).toContain("render 1 of /entries/pageold");
    expect(await (await page("/entries/pageold")).text()).toContain("render 2 of /entries/pageold");
    expect(await answerFromPublicCache({ method: "GET", url: "/entries/pageold", headers: {} })).toBeNull();

    await db.submission.update({ where: { id: "pageold" }, data: { publication: "HIDDEN" } });
    await page("/entries/pageold");
    expect(renders.get("/entries/pageold")).toBe(3);
    expect(await answerFromPublicCache({ method: "GET", url: "/entries/pageold", headers: {} })).toBeNull();
  });
});
