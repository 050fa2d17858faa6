import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Before any import reads the environment: sessions are signed with the helpers' secret.
vi.hoisted(() => {
  process.env.NEXTAUTH_SECRET = "integration-test-secret-0123456789";
});

import { GET as getAccountMenu } from "@/app/api/account-menu/route";
import { db } from "@/lib/platform/db";
import { findPublicReadStamp, setLeaderboardStampTtl } from "@/lib/domain/leaderboard/get-leaderboard";
import { cachedBodyRequest } from "@/lib/web/public-cache/cached-body-request";
import { clearLocalPublicBodies } from "@/lib/web/public-cache/public-body-cache";
import { answerFromPublicCache, type FastPathAnswer, type FastPathRequest } from "@/lib/web/public-cache/public-fast-path";
import { servePublicPage } from "@/lib/web/public-cache/public-page-cache";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import { closeSharedRedis } from "@/lib/platform/redis";
import { importLeaderboardRelease, openPredictions, storeScoredEntries } from "@/testing/leaderboard/integration-fixtures";
import { assertTestDatabase } from "@/testing/local-database";
import { flushTestRedis, resetDatabase } from "./support/reset";
import { encode } from "next-auth/jwt";
import { sessionCookieHeader, sessionCookieName, sessionCookieValue } from "@/testing/test-sessions";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * The shared page cache keeps only pages the active release's stamp versions.
 * An entry page of an earlier release is not one of them: hiding that entry
 * changes no stamp, so a kept copy would go on being served (by the web
 * server's fast path too) after the takedown. Pages are rendered here by a
 * stand-in for the web server's private listener that counts its renders.
 */

const renders = new Map<string, number>();
/** The request headers of every render: the shared body must be rendered for nobody. */
const renderHeaders: IncomingHttpHeaders[] = [];
let renderServer: Server;
let ada: TestUser;
let grace: TestUser;

async function page(path: string): Promise<Response> {
  return servePublicPage(new Request(`http://127.0.0.1${path}`), path);
}

beforeAll(async () => {
  assertTestDatabase();
  renderServer = createServer((req, res) => {
    const path = req.url ?? "/";
    renders.set(path, (renders.get(path) ?? 0) + 1);
    renderHeaders.push(req.headers);
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
  ada = await createTestUser({ label: "page-cache-ada" });
  grace = await createTestUser({ label: "page-cache-grace", role: "MAINTAINER" });
  const earlier = await importLeaderboardRelease("page-cache-earlier", 24);
  await storeScoredEntries(earlier, [
    { id: "pageold", userId: owner.id, split: "test", publication: "PUBLISHED", systemName: "Old Board Entry", track: "open", predictions: openPredictions(earlier.gold.test, (i) => (i % 2 === 0 ? "exact" : "miss")) },
  ]);
  const active = await importLeaderboardRelease("page-cache-active", 24, "page-cache-earlier");
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

/** The fast path's answer, whether it came at once or after a read of the stamp or Redis. */
async function fastAnswer(request: FastPathRequest): Promise<FastPathAnswer | null> {
  return answerFromPublicCache(request);
}

describe("one shared body for every reader of a public page", () => {
  it("keys a signed-in reader's request exactly as an anonymous one: a cookie or a token changes nothing", async () => {
    const cookie = await sessionCookieHeader({ id: ada.id });
    for (const url of ["/leaderboard?track=closed", "/leaderboard/matrix", "/entries/pagenew"]) {
      const anonymous = cachedBodyRequest({ method: "GET", url, headers: {} });
      expect(anonymous?.kind, url).toBe("page");
      expect(cachedBodyRequest({ method: "GET", url, headers: { cookie } }), url).toEqual(anonymous);
      expect(cachedBodyRequest({ method: "GET", url, headers: { authorization: "Bearer irc_x" } }), url).toEqual(anonymous);
      // A client-side navigation is never the shared body, signed in or not.
      expect(cachedBodyRequest({ method: "GET", url, headers: { cookie, rsc: "1" } }), url).toBeNull();
    }
  });

  it("sends a participant, a maintainer and an anonymous reader the same bytes, rendered without anyone's credentials", async () => {
    renderHeaders.length = 0;
    expect((await page("/leaderboard?track=closed")).status).toBe(200);
    expect(renderHeaders).toHaveLength(1);
    expect(renderHeaders[0]?.cookie).toBeUndefined();
    expect(renderHeaders[0]?.authorization).toBeUndefined();

    const anonymous = await fastAnswer({ method: "GET", url: "/leaderboard?track=closed", headers: {} });
    expect(anonymous?.status).toBe(200);
    expect(anonymous?.headers["X-Irc-Page-Cache"]).toBe("shared");
    // Nothing in it depends on the cookie, so nothing says it does.
    expect(anonymous?.headers.Vary).not.toContain("Cookie");
    for (const user of [ada, grace]) {
      const signedIn = await fastAnswer({ method: "GET", url: "/leaderboard?track=closed", headers: { cookie: await sessionCookieHeader({ id: user.id }) } });
      expect(signedIn?.status).toBe(200);
      expect(signedIn?.headers.ETag).toBe(anonymous?.headers.ETag);
      expect(signedIn?.body?.equals(anonymous?.body ?? Buffer.alloc(0))).toBe(true);
      expect(signedIn?.body?.toString("utf8")).not.toContain(user.displayName);
    }
    expect(renderHeaders).toHaveLength(1);
  });

  it("answers a hit whose stamp and body the process holds at once, without a promise, with the same answer", async () => {
    setLeaderboardStampTtl(60_000);
    try {
      await findPublicReadStamp();
      await page("/entries/pagenew");
      const later = await answerFromPublicCache({ method: "GET", url: "/entries/pagenew", headers: {} });
      const now = answerFromPublicCache({ method: "GET", url: "/entries/pagenew", headers: { cookie: await sessionCookieHeader({ id: ada.id }) } });
      expect(now).not.toBeInstanceOf(Promise);
      expect(now).toEqual(later);
    } finally {
      setLeaderboardStampTtl(0);
    }
  });
});

describe("the header's account menu, GET /api/account-menu", () => {
  async function menuFor(headers: Record<string, string>) {
    const response = await getAccountMenu(new Request("http://127.0.0.1/api/account-menu", { headers }));
    return { status: response.status, cacheControl: response.headers.get("cache-control"), body: (await response.json()) as unknown };
  }

  it("names the session's own user, with the maintainer's links only for a maintainer, and is never cached", async () => {
    expect(await menuFor({ cookie: await sessionCookieHeader({ id: ada.id }) })).toEqual({
      status: 200,
      cacheControl: "private, no-store",
      body: { signedIn: true, displayName: ada.displayName, isMaintainer: false },
    });
    expect((await menuFor({ cookie: await sessionCookieHeader({ id: grace.id }) })).body).toEqual({ signedIn: true, displayName: grace.displayName, isMaintainer: true });
  });

  it("signs nobody in without a valid session: no cookie, a forged one, or an API token", async () => {
    const token = await createApiToken({ actor: sessionActor(ada), name: "menu check" });
    const callers: Record<string, string>[] = [{}, { cookie: "next-auth.session-token=forged" }, { authorization: `Bearer ${token.token}` }];
    for (const headers of callers) {
      expect(await menuFor(headers)).toEqual({ status: 200, cacheControl: "private, no-store", body: { signedIn: false } });
    }
  });

  it("is answered by the web server's fast path as the route answers it, each session its own, an Authorization header left to the route", async () => {
    const fastMenu = async (headers: Record<string, string>) => {
      const answer = await fastAnswer({ method: "GET", url: "/api/account-menu", headers });
      expect(answer?.headers.Vary).toMatch(/(^|, )Cookie$/);
      return { status: answer?.status, cacheControl: answer?.headers["Cache-Control"] ?? null, body: JSON.parse(answer?.body?.toString("utf8") ?? "null") as unknown };
    };
    const system = await db.user.create({ data: { email: "system@page-cache-menu.invalid", displayName: "IRC-Bench maintainers", isSystem: true } });
    const secret = process.env.NEXTAUTH_SECRET ?? "";
    const expired = await encode({ token: { sub: ada.id }, secret, maxAge: -60 });
    const value = await sessionCookieValue({ id: grace.id });
    const half = value.length >> 1;
    const callers: Record<string, string>[] = [
      { cookie: "theme=dark" },
      { cookie: `${sessionCookieName()}=forged` },
      { cookie: `${sessionCookieName()}=${expired}` },
      { cookie: await sessionCookieHeader({ id: "no-such-user" }) },
      { cookie: await sessionCookieHeader({ id: system.id }) },
      { cookie: await sessionCookieHeader({ id: ada.id }) },
      { cookie: `theme=dark; ${await sessionCookieHeader({ id: grace.id })}` },
      // next-auth splits a large session into name.0, name.1, ...
      { cookie: `${sessionCookieName()}.0=${value.slice(0, half)}; ${sessionCookieName()}.1=${value.slice(half)}` },
    ];
    const signedIn: unknown[] = [];
    for (const headers of callers) {
      const route = await menuFor(headers);
      expect(await fastMenu(headers)).toEqual(route);
      if ((route.body as { signedIn?: boolean }).signedIn === true) signedIn.push(route.body);
    }
    // The control: the last three name their own user, the others nobody.
    expect(signedIn).toEqual([
      { signedIn: true, displayName: ada.displayName, isMaintainer: false },
      { signedIn: true, displayName: grace.displayName, isMaintainer: true },
      { signedIn: true, displayName: grace.displayName, isMaintainer: true },
    ]);
    expect((await fastMenu({ cookie: await sessionCookieHeader({ id: grace.id }) })).body).toEqual({ signedIn: true, displayName: grace.displayName, isMaintainer: true });
    const token = await createApiToken({ actor: sessionActor(ada), name: "fast menu check" });
    expect(await fastAnswer({ method: "GET", url: "/api/account-menu", headers: { authorization: `Bearer ${token.token}`, cookie: await sessionCookieHeader({ id: ada.id }) } })).toBeNull();
    expect(await fastAnswer({ method: "POST", url: "/api/account-menu", headers: { cookie: await sessionCookieHeader({ id: ada.id }) } })).toBeNull();
  });
});
