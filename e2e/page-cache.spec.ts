import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { APIResponse } from "@playwright/test";
import { apiContextFor, createTestApiToken, expect, test } from "./fixtures";
import { publicationBody } from "./fixtures/publication";
import { uploadScored } from "./fixtures/scored-upload";
import { freePort } from "../testing/free-port";
import { e2eServerEnv } from "./fixtures/server-env";

/**
 * The shared cache of rendered public pages (lib/web/public-cache/public-page-cache.ts)
 * behind the production server (scripts/server/web-server.mjs): readers get one body
 * per version of the public data (what signed-in readers get is
 * e2e/shared-page-readers.spec.ts). Cache hits are answered by the web server
 * itself (lib/web/public-cache/public-fast-path.ts), before Next.js sees them.
 */

const SHARED = "x-irc-page-cache";

async function textOf(response: APIResponse): Promise<string> {
  return (await response.body()).toString("utf8");
}

test("[LEADERBOARD] anonymous readers get the shared cached page (gzip, brotli, 304), and a published entry shows on it at once", async ({
  playwright,
  baseURL,
  createUser,
}) => {
  const owner = await createUser({ label: "cache-owner" });
  const maintainer = await createUser({ label: "cache-maint", role: "MAINTAINER" });
  const ownerApi = await apiContextFor(playwright, baseURL ?? "", { kind: "token", token: (await createTestApiToken(owner.id)).token });
  // Maintainer actions take a browser session, never a token.
  const maintainerApi = await apiContextFor(playwright, baseURL ?? "", { kind: "session", user: maintainer });
  const reader = await playwright.request.newContext({ baseURL });
  const systemName = `Cached reader check ${Date.now()}`;
  const pageUrl = `/leaderboard?track=closed&q=${encodeURIComponent(systemName)}`;

  const id = await uploadScored(ownerApi);
  const publication = await ownerApi.post(`/api/submissions/${id}/publication`, {
    data: publicationBody(systemName, { methodDescription: "A closed-track ranker, published to read it back through the page cache." }),
  });
  expect(publication.status(), await publication.text()).toBe(202);

  // Before approval: the filtered page is cached without the entry, and the entry page is not public.
  const before = await reader.get(pageUrl, { headers: { "accept-encoding": "gzip" } });
  expect(before.status()).toBe(200);
  expect(before.headers()[SHARED]).toBe("shared");
  expect(before.headers()["content-encoding"]).toBe("gzip");
  // The search box repeats the name: the entry's id marks its row.
  expect(await textOf(before)).not.toContain(id);
  const etag = before.headers()["etag"] ?? "";
  expect(etag).toMatch(/^"[A-Za-z0-9_-]+-gzip"$/);
  const again = await reader.get(pageUrl, { headers: { "accept-encoding": "gzip", "if-none-match": etag } });
  expect(again.status()).toBe(304);
  const brotli = await reader.get(pageUrl, { headers: { "accept-encoding": "br" } });
  expect(brotli.headers()["content-encoding"]).toBe("br");
  expect(await textOf(brotli)).toBe(await textOf(before));
  expect((await reader.get(`/entries/${id}`)).status()).toBe(404);

  const approval = await maintainerApi.post(`/api/admin/submissions/${id}/review`, {
    data: { action: "approve", reason: "Checked, to test the page cache." },
  });
  expect(approval.status(), await approval.text()).toBe(200);

  // The data stamp is re-read at most once a second: poll, never time.
  await expect.poll(async () => textOf(await reader.get(pageUrl)), { timeout: 10_000, intervals: [100] }).toContain(`/entries/${id}`);
  const after = await reader.get(pageUrl, { headers: { "accept-encoding": "gzip", "if-none-match": etag } });
  expect(after.status()).toBe(200);
  expect(after.headers()[SHARED]).toBe("shared");
  expect(after.headers()["etag"]).not.toBe(etag);
  const entryPage = await reader.get(`/entries/${id}`);
  expect(entryPage.status()).toBe(200);
  expect(entryPage.headers()[SHARED]).toBe("shared");
  expect(await textOf(entryPage)).toContain(systemName);

  // Hiding takes it off the cached pages again.
  const hidden = await maintainerApi.post(`/api/admin/submissions/${id}/review`, { data: { action: "hide", reason: "Page cache check done." } });
  expect(hidden.status(), await hidden.text()).toBe(200);
  await expect.poll(async () => (await reader.get(`/entries/${id}`)).status(), { timeout: 10_000, intervals: [100] }).toBe(404);
  await expect.poll(async () => textOf(await reader.get(pageUrl)), { timeout: 10_000, intervals: [100] }).not.toContain(id);

  await Promise.all([ownerApi.dispose(), maintainerApi.dispose(), reader.dispose()]);
});

/** A second production web process on the same database and Redis, as a deployment with two would run. */
async function startSecondWebProcess(): Promise<{ origin: string; server: ChildProcess }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = spawn("node", [path.join(__dirname, "..", "scripts", "server", "web-server.mjs"), "--port", String(port), "--hostname", "127.0.0.1"], {
    cwd: path.join(__dirname, ".."),
    env: e2eServerEnv(port),
    stdio: ["ignore", "ignore", "inherit"],
  });
  await expect
    .poll(
      async () => {
        if (server.exitCode !== null) throw new Error(`the second web process exited with ${server.exitCode}`);
        return fetch(`${origin}/api/health`).then(
          (response) => response.status,
          () => 0,
        );
      },
      { timeout: 90_000, intervals: [250] },
    )
    .toBeGreaterThan(0);
  return { origin, server };
}

test("[LEADERBOARD] two web processes both stop serving the old cached page and API body within a second of a publish", async ({
  playwright,
  baseURL,
  createUser,
}) => {
  test.setTimeout(180_000);
  const second = await startSecondWebProcess();
  const owner = await createUser({ label: "cache2-owner" });
  const maintainer = await createUser({ label: "cache2-maint", role: "MAINTAINER" });
  const ownerApi = await apiContextFor(playwright, baseURL ?? "", { kind: "token", token: (await createTestApiToken(owner.id)).token });
  const maintainerApi = await apiContextFor(playwright, baseURL ?? "", { kind: "session", user: maintainer });
  const readers = [await playwright.request.newContext({ baseURL }), await playwright.request.newContext({ baseURL: second.origin })];
  try {
    const systemName = `Two process check ${Date.now()}`;
    const pageUrl = `/leaderboard?track=closed&q=${encodeURIComponent(systemName)}`;
    const apiUrl = "/api/entries?track=closed&split=test";
    const id = await uploadScored(ownerApi);
    const publication = await ownerApi.post(`/api/submissions/${id}/publication`, {
      data: publicationBody(systemName, { methodDescription: "Published to check that no web process keeps serving the old body." }),
    });
    expect(publication.status(), await publication.text()).toBe(202);

    // Both processes serve the old bodies from the cache (a second read is a hit of a body a route made).
    const oldTags: string[] = [];
    for (const reader of readers) {
      for (const url of [pageUrl, apiUrl]) {
        await reader.get(url, { headers: { "accept-encoding": "gzip" } });
        const cached = await reader.get(url, { headers: { "accept-encoding": "gzip" } });
        expect(cached.status(), url).toBe(200);
        expect(cached.headers()["content-encoding"], url).toBe("gzip");
        if (url === pageUrl) expect(cached.headers()[SHARED]).toBe("shared");
        expect(await textOf(cached), url).not.toContain(id);
        oldTags.push(cached.headers()["etag"] ?? "");
      }
    }

    const approval = await maintainerApi.post(`/api/admin/submissions/${id}/review`, {
      data: { action: "approve", reason: "Two web processes, one publish." },
    });
    expect(approval.status(), await approval.text()).toBe(200);
    const approvedAt = Date.now();

    // Each process re-reads the data stamp at most a second after its last read, which came before the approval:
    // the first reads a second later must no longer get an old body, in any encoding, on either process.
    // The condition is the clock itself (the assertion is "fresh within a second"), so it is polled, not slept.
    await expect.poll(() => Date.now(), { intervals: [10] }).toBeGreaterThan(approvedAt + 1000 + 50);
    let index = 0;
    for (const reader of readers) {
      for (const url of [pageUrl, apiUrl]) {
        const fresh = await reader.get(url, { headers: { "accept-encoding": "gzip" } });
        expect(fresh.status(), url).toBe(200);
        expect(fresh.headers()["etag"], url).not.toBe(oldTags[index]);
        expect(await textOf(fresh), url).toContain(id);
        const brotli = await reader.get(url, { headers: { "accept-encoding": "br" } });
        expect(brotli.headers()["content-encoding"], url).toBe("br");
        expect(await textOf(brotli), url).toContain(id);
        index += 1;
      }
    }
  } finally {
    await Promise.all([ownerApi.dispose(), maintainerApi.dispose(), ...readers.map((reader) => reader.dispose())]);
    second.server.kill("SIGTERM");
  }
});
