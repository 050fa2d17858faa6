import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { apiContextFor, createTestApiToken, expect, sessionCookieValue, signInContext, test, type TestUser } from "./fixtures";
import { publicationBody } from "./fixtures/publication";
import { uploadScored } from "./fixtures/scored-upload";
import { sessionCookieName } from "../testing/test-sessions";

/**
 * Every reader of a public page gets the same shared body, the anonymous
 * reader's (lib/web/public-cache/public-page-cache.ts); the header's account menu
 * is filled in by the browser from GET /api/account-menu. Two participants and
 * a maintainer: the server's bytes are the same for each of them and for
 * nobody, none of them carries anyone's name, an owner's or a maintainer's
 * links, and each browser shows its own menu only.
 */

const SHARED = "x-irc-page-cache";
const MAINTAINER_LINKS = ["/admin/review", "/admin/queue", "/admin/audit", "/admin/users"];

/** A page's bytes as the server sent them to `reader` (the body decoded from gzip, nothing run). */
async function bytesFor(reader: APIRequestContext, url: string): Promise<{ body: Buffer; etag: string }> {
  const response = await reader.get(url, { headers: { "accept-encoding": "gzip" } });
  expect(response.status(), url).toBe(200);
  expect(response.headers()[SHARED], url).toBe("shared");
  return { body: await response.body(), etag: response.headers()["etag"] ?? "" };
}

async function readerFor(playwright: { request: { newContext: (options: object) => Promise<APIRequestContext> } }, baseURL: string, user: TestUser | null): Promise<APIRequestContext> {
  const cookie = user === null ? null : `${sessionCookieName(baseURL.startsWith("https://"))}=${await sessionCookieValue(user)}`;
  return playwright.request.newContext({ baseURL, extraHTTPHeaders: cookie === null ? {} : { cookie } });
}

async function signedInPage(browser: Browser, baseURL: string, user: TestUser, options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL, ...options });
  await signInContext(context, baseURL, user);
  return context.newPage();
}

test("[LEADERBOARD] signed-in readers get the anonymous page byte for byte; each browser fills in only its own account menu", async ({
  browser,
  playwright,
  baseURL,
  createUser,
}) => {
  test.setTimeout(120_000);
  const origin = baseURL ?? "";
  const stamp = Date.now();
  const ada = await createUser({ label: "shared-ada", displayName: `Ada Shared ${stamp}` });
  const bob = await createUser({ label: "shared-bob", displayName: `Bob Shared ${stamp}` });
  const maintainer = await createUser({ label: "shared-maint", role: "MAINTAINER", displayName: `Maud Shared ${stamp}` });

  // Bob owns a published entry: its page must carry no owner's links, even for Bob.
  const bobApi = await apiContextFor(playwright, origin, { kind: "token", token: (await createTestApiToken(bob.id)).token });
  const maintainerApi = await apiContextFor(playwright, origin, { kind: "session", user: maintainer });
  const systemName = `Shared page check ${stamp}`;
  const entryId = await uploadScored(bobApi);
  const publication = await bobApi.post(`/api/submissions/${entryId}/publication`, { data: publicationBody(systemName) });
  expect(publication.status(), await publication.text()).toBe(202);
  const approval = await maintainerApi.post(`/api/admin/submissions/${entryId}/review`, {
    data: { action: "approve", reason: "Published to read it back as three different people." },
  });
  expect(approval.status(), await approval.text()).toBe(200);

  const readers = {
    anonymous: await readerFor(playwright, origin, null),
    ada: await readerFor(playwright, origin, ada),
    bob: await readerFor(playwright, origin, bob),
    maintainer: await readerFor(playwright, origin, maintainer),
  };
  const entryPage = `/entries/${entryId}`;
  await expect.poll(async () => (await readers.anonymous.get(entryPage)).status(), { timeout: 10_000, intervals: [100] }).toBe(200);

  for (const url of ["/leaderboard", "/leaderboard?track=closed", entryPage]) {
    const anonymous = await bytesFor(readers.anonymous, url);
    for (const [who, reader] of Object.entries(readers)) {
      const seen = await bytesFor(reader, url);
      expect(seen.etag, `${who} ${url}`).toBe(anonymous.etag);
      expect(seen.body.equals(anonymous.body), `${who} gets the anonymous bytes of ${url}`).toBe(true);
      const text = seen.body.toString("utf8");
      // Nobody's account: the names shown are the entries' teams, and only Bob has one.
      for (const user of [ada, maintainer]) expect(text, `${who} ${url}`).not.toContain(user.displayName);
      for (const link of [...MAINTAINER_LINKS, `/submissions/${entryId}`, "/account\"", "/runs\""]) expect(text, `${who} ${url}`).not.toContain(link);
      expect(text, `${who} ${url}`).toContain("Sign in");
    }
  }

  // The menu itself: each session's own, never cached; nobody's without a session.
  for (const [reader, expected] of [
    [readers.anonymous, { signedIn: false }],
    [readers.ada, { signedIn: true, displayName: ada.displayName, isMaintainer: false }],
    [readers.maintainer, { signedIn: true, displayName: maintainer.displayName, isMaintainer: true }],
  ] as const) {
    const menu = await reader.get("/api/account-menu");
    expect(menu.headers()["cache-control"]).toBe("private, no-store");
    expect(await menu.json()).toEqual(expected);
  }

  // In the browser: each reader's header names them, and only them; the maintainer's links only for the maintainer.
  const pages = { ada: await signedInPage(browser, origin, ada), bob: await signedInPage(browser, origin, bob), maintainer: await signedInPage(browser, origin, maintainer) };
  for (const [who, user] of [["ada", ada], ["bob", bob], ["maintainer", maintainer]] as const) {
    const page = pages[who];
    for (const url of ["/leaderboard", entryPage]) {
      const response = await page.goto(url);
      expect(response?.headers()[SHARED], `${who} ${url}`).toBe("shared");
      const menu = page.getByRole("list", { name: "Account" });
      await expect(menu.getByRole("link", { name: `Account of ${user.displayName}` })).toBeVisible({ timeout: 15_000 });
      await expect(menu).not.toContainText("Sign in");
      await expect(menu.getByRole("link", { name: "Review" })).toHaveCount(who === "maintainer" ? 1 : 0);
      for (const other of [ada, bob, maintainer].filter((candidate) => candidate !== user)) await expect(menu).not.toContainText(other.displayName);
    }
  }
  // The second participant's page, whole: nothing of the first participant's, nor an owner's controls on Bob's own entry.
  expect(await pages.bob.content()).not.toContain(ada.displayName);
  await expect(pages.bob.locator(`a[href^="/submissions/${entryId}"]`)).toHaveCount(0);
  await pages.ada.goto("/leaderboard");
  await expect(pages.ada.getByRole("list", { name: "Account" }).getByRole("link", { name: `Account of ${ada.displayName}` })).toBeVisible({ timeout: 15_000 });
  expect(await pages.ada.content()).not.toContain(maintainer.displayName);

  // Without JavaScript a signed-in reader still reads the page: the public body, with the signed-out header.
  const withoutScript = await signedInPage(browser, origin, ada, { javaScriptEnabled: false });
  await withoutScript.goto("/leaderboard");
  await expect(withoutScript.getByRole("heading", { level: 1, name: "Leaderboard" })).toBeVisible();
  await expect(withoutScript.getByRole("table").first()).toBeVisible();
  await expect(withoutScript.getByRole("list", { name: "Account" }).getByRole("link", { name: "Sign in" })).toBeVisible();

  await Promise.all([
    bobApi.dispose(),
    maintainerApi.dispose(),
    ...Object.values(readers).map((reader) => reader.dispose()),
    ...Object.values(pages).map((page) => page.context().close()),
    withoutScript.context().close(),
  ]);
});
