import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Before any import reads the environment: sessions are signed with the helpers' secret.
vi.hoisted(() => {
  process.env.NEXTAUTH_SECRET = "integration-test-secret-0123456789";
  delete process.env.NEXTAUTH_URL;
});

import { getActor } from "@/lib/domain/accounts/get-actor";
import { db } from "@/lib/platform/db";
import { AppError, toHttpStatus } from "@/lib/core/errors";
import { getSharedRedis } from "@/lib/platform/redis";
import { authenticateApiToken, LAST_USED_RESOLUTION_MS } from "@/lib/domain/accounts/authenticate-api-token";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import { listApiTokens } from "@/lib/domain/accounts/list-api-tokens";
import { revokeApiToken } from "@/lib/domain/accounts/revoke-api-token";
import { hashApiToken } from "@/lib/core/accounts/token-format";
import { changeUserRole } from "@/lib/domain/accounts/change-user-role";
import { assertTestDatabase } from "@/testing/local-database";
import { sessionCookieHeader } from "@/testing/test-sessions";
import { createTestUser, deleteTestUsers, sessionActor, type TestUser } from "@/testing/test-users";

const DAY_MS = 24 * 60 * 60 * 1000;
const BASE = "http://127.0.0.1:3100";

let ada: TestUser;
let bob: TestUser;
let max: TestUser;

async function statusOf(run: () => Promise<unknown>): Promise<number> {
  try {
    await run();
    return 200;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return toHttpStatus(error);
  }
}

async function messageOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return error.message;
    throw error;
  }
  throw new Error("expected an AppError");
}

function bearer(token: string, init: RequestInit = {}): Request {
  return new Request(`${BASE}/api/me`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
}

beforeAll(async () => {
  assertTestDatabase();
  ada = await createTestUser({ label: "tok-ada" });
  bob = await createTestUser({ label: "tok-bob" });
  max = await createTestUser({ label: "tok-max", role: "MAINTAINER" });
});

afterAll(async () => {
  await deleteTestUsers([ada.id, bob.id, max.id]);
  await db.$disconnect();
  await getSharedRedis().quit();
});

describe("API token lifecycle", () => {
  it("creates a token shown once and stores only its hash", async () => {
    const created = await createApiToken({ actor: sessionActor(ada), name: "laptop" });
    expect(created.token).toMatch(/^ircb_[A-Za-z0-9_-]{43}$/);
    expect(created.apiToken).toMatchObject({ name: "laptop", prefix: created.token.slice(0, 11), status: "active", expiresAt: null, lastUsedAt: null });
    const row = await db.apiToken.findUniqueOrThrow({ where: { id: created.apiToken.id } });
    expect(row.tokenHash).toBe(hashApiToken(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token);
    const listed = await listApiTokens({ actor: sessionActor(ada) });
    expect(listed.map((token) => token.id)).toContain(created.apiToken.id);
    expect(JSON.stringify(listed)).not.toContain(row.tokenHash);
  });

  it("authenticates as its owner with participant rights and records lastUsedAt", async () => {
    const { token, apiToken } = await createApiToken({ actor: sessionActor(ada), name: "ci" });
    const firstUse = new Date("2030-01-01T10:00:00Z");
    const actor = await authenticateApiToken(token, firstUse);
    expect(actor).toEqual({ kind: "user", userId: ada.id, role: "PARTICIPANT", displayName: ada.displayName, via: "token", tokenId: apiToken.id });
    expect((await db.apiToken.findUniqueOrThrow({ where: { id: apiToken.id } })).lastUsedAt?.toISOString()).toBe(firstUse.toISOString());

    // within the resolution the row is not rewritten; after it, it is
    await authenticateApiToken(token, new Date(firstUse.getTime() + LAST_USED_RESOLUTION_MS / 2));
    expect((await db.apiToken.findUniqueOrThrow({ where: { id: apiToken.id } })).lastUsedAt?.toISOString()).toBe(firstUse.toISOString());
    const later = new Date(firstUse.getTime() + LAST_USED_RESOLUTION_MS);
    await authenticateApiToken(token, later);
    expect((await db.apiToken.findUniqueOrThrow({ where: { id: apiToken.id } })).lastUsedAt?.toISOString()).toBe(later.toISOString());
  });

  it("is accepted by getActor from the Authorization header, also on writes without Origin", async () => {
    const { token, apiToken } = await createApiToken({ actor: sessionActor(ada), name: "bearer" });
    await expect(getActor(bearer(token))).resolves.toMatchObject({ userId: ada.id, via: "token", tokenId: apiToken.id });
    await expect(getActor(bearer(token, { method: "POST" }))).resolves.toMatchObject({ userId: ada.id, via: "token" });
    expect(await statusOf(() => getActor(bearer("ircb_not-a-real-token")))).toBe(401);
    expect(await statusOf(() => getActor(new Request(BASE, { headers: { authorization: "Basic YWRhOnB3" } })))).toBe(401);
  });

  it("cannot create further tokens (browser session only)", async () => {
    const { token } = await createApiToken({ actor: sessionActor(ada), name: "no-minting" });
    const tokenActor = await authenticateApiToken(token);
    expect(await statusOf(() => createApiToken({ actor: tokenActor, name: "child" }))).toBe(403);
  });

  it("is refused once revoked, with a message that says so", async () => {
    const { token, apiToken } = await createApiToken({ actor: sessionActor(ada), name: "to revoke" });
    const revoked = await revokeApiToken({ actor: sessionActor(ada), tokenId: apiToken.id });
    expect(revoked.status).toBe("revoked");
    expect(await statusOf(() => authenticateApiToken(token))).toBe(401);
    expect(await messageOf(() => authenticateApiToken(token))).toContain("revoked");
    // revoking again keeps the first time
    const again = await revokeApiToken({ actor: sessionActor(ada), tokenId: apiToken.id });
    expect(again.revokedAt).toBe(revoked.revokedAt);
  });

  it("can revoke itself", async () => {
    const { token, apiToken } = await createApiToken({ actor: sessionActor(ada), name: "self-revoke" });
    const tokenActor = await authenticateApiToken(token);
    await revokeApiToken({ actor: tokenActor, tokenId: apiToken.id });
    expect(await statusOf(() => authenticateApiToken(token))).toBe(401);
  });

  it("is refused after it expires", async () => {
    const createdAt = new Date("2030-03-01T00:00:00Z");
    const { token, apiToken } = await createApiToken({ actor: sessionActor(ada), name: "short-lived", expiresInDays: 7, now: createdAt });
    expect(apiToken.expiresAt).toBe(new Date(createdAt.getTime() + 7 * DAY_MS).toISOString());
    await expect(authenticateApiToken(token, new Date(createdAt.getTime() + 7 * DAY_MS - 1))).resolves.toMatchObject({ userId: ada.id });
    expect(await statusOf(() => authenticateApiToken(token, new Date(createdAt.getTime() + 7 * DAY_MS)))).toBe(401);
    expect(await messageOf(() => authenticateApiToken(token, new Date(createdAt.getTime() + 8 * DAY_MS)))).toContain("expired");
  });

  it("someone else's token is 404 for a participant and revocable by a maintainer (audited)", async () => {
    const { apiToken } = await createApiToken({ actor: sessionActor(ada), name: "others" });
    expect(await statusOf(() => revokeApiToken({ actor: sessionActor(bob), tokenId: apiToken.id }))).toBe(404);
    expect(await statusOf(() => revokeApiToken({ actor: sessionActor(bob), tokenId: "no-such-token" }))).toBe(404);
    await revokeApiToken({ actor: sessionActor(max), tokenId: apiToken.id });
    const audit = await db.auditLog.findFirstOrThrow({ where: { targetId: apiToken.id, action: "api_token.revoked" } });
    expect(audit).toMatchObject({ actorId: max.id, targetType: "ApiToken", details: { ownerId: ada.id, prefix: apiToken.prefix } });
  });

  it("a maintainer's token carries participant rights only", async () => {
    const { token } = await createApiToken({ actor: sessionActor(max), name: "maint" });
    const tokenActor = await authenticateApiToken(token);
    expect(tokenActor.role).toBe("MAINTAINER");
    expect(await statusOf(() => changeUserRole({ actor: tokenActor, userId: ada.id, role: "MAINTAINER" }))).toBe(403);
    const { apiToken: adasToken } = await createApiToken({ actor: sessionActor(ada), name: "not yours" });
    expect(await statusOf(() => revokeApiToken({ actor: tokenActor, tokenId: adasToken.id }))).toBe(404);
  });
});

describe("getActor with a session cookie", () => {
  it("reads the user and the current role from the database", async () => {
    const cookie = await sessionCookieHeader({ id: bob.id });
    await expect(getActor(new Request(`${BASE}/api/me`, { headers: { cookie } }))).resolves.toEqual({
      kind: "user",
      userId: bob.id,
      role: "PARTICIPANT",
      displayName: bob.displayName,
      via: "session",
    });
    await db.user.update({ where: { id: bob.id }, data: { role: "MAINTAINER" } });
    await expect(getActor(new Request(`${BASE}/api/me`, { headers: { cookie } }))).resolves.toMatchObject({ role: "MAINTAINER" });
    await db.user.update({ where: { id: bob.id }, data: { role: "PARTICIPANT" } });
    await expect(getActor(new Request(`${BASE}/api/me`, { headers: { cookie } }))).resolves.toMatchObject({ role: "PARTICIPANT" });
  });

  it("treats a forged or unknown session as anonymous", async () => {
    await expect(getActor(new Request(BASE, { headers: { cookie: "next-auth.session-token=forged" } }))).resolves.toEqual({ kind: "anonymous" });
    const ghost = await sessionCookieHeader({ id: "no-such-user" });
    await expect(getActor(new Request(BASE, { headers: { cookie: ghost } }))).resolves.toEqual({ kind: "anonymous" });
    await expect(getActor(new Request(BASE))).resolves.toEqual({ kind: "anonymous" });
  });

  it("refuses a cookie-authenticated write from another origin or without Origin (CSRF)", async () => {
    const cookie = await sessionCookieHeader({ id: bob.id });
    const host = "127.0.0.1:3100";
    const write = (headers: Record<string, string>) => getActor(new Request(`${BASE}/api/me`, { method: "PATCH", headers: { cookie, host, ...headers } }));
    expect(await statusOf(() => write({}))).toBe(403);
    expect(await statusOf(() => write({ origin: "https://evil.example" }))).toBe(403);
    await expect(write({ origin: BASE })).resolves.toMatchObject({ userId: bob.id });
    // reads need no Origin
    await expect(getActor(new Request(`${BASE}/api/me`, { headers: { cookie, host } }))).resolves.toMatchObject({ userId: bob.id });
  });
});
