import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { AppError, toHttpStatus } from "@/lib/core/errors";
import { getSharedRedis } from "@/lib/platform/redis";
import { changeUserRole } from "@/lib/domain/accounts/change-user-role";
import { linkOAuthAccount } from "@/lib/domain/accounts/link-oauth-account";
import { listUsers } from "@/lib/domain/accounts/list-users";
import { assertTestDatabase } from "@/testing/local-database";
import { createTestUser, deleteTestUsers, sessionActor, type TestUser, uniqueEmail, uniqueSuffix } from "@/testing/test-users";

/**
 * The last-maintainer rule counts every maintainer in the database, so this
 * file demotes the maintainers other tests left behind and restores them at
 * the end. It runs alone (integration files do not run in parallel).
 */
let sidelined: string[] = [];
const created: string[] = [];

async function statusOf(run: () => Promise<unknown>): Promise<number> {
  try {
    await run();
    return 200;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return toHttpStatus(error);
  }
}

async function maintainerIds(): Promise<string[]> {
  const rows = await db.user.findMany({ where: { role: "MAINTAINER", isSystem: false }, select: { id: true } });
  return rows.map((row) => row.id).sort();
}

async function track(label: string, role: TestUser["role"] = "PARTICIPANT"): Promise<TestUser> {
  const user = await createTestUser({ label, role });
  created.push(user.id);
  return user;
}

beforeAll(async () => {
  assertTestDatabase();
  sidelined = await maintainerIds();
  await db.user.updateMany({ where: { id: { in: sidelined } }, data: { role: "PARTICIPANT" } });
});

afterAll(async () => {
  await db.user.updateMany({ where: { id: { in: sidelined } }, data: { role: "MAINTAINER" } });
  await deleteTestUsers(created);
  await db.$disconnect();
  await getSharedRedis().quit();
});

describe("last-maintainer rule", () => {
  it("the only maintainer cannot demote themself", async () => {
    const solo = await track("solo", "MAINTAINER");
    expect(await statusOf(() => changeUserRole({ actor: sessionActor(solo), userId: solo.id, role: "PARTICIPANT" }))).toBe(409);
    expect(await maintainerIds()).toEqual([solo.id]);
    await db.user.update({ where: { id: solo.id }, data: { role: "PARTICIPANT" } });
  });

  it("promotion, then demotion of either but not both, each written to the audit log", async () => {
    const first = await track("first", "MAINTAINER");
    const second = await track("second");
    const reason = `runs the ${uniqueSuffix()} workshop`;

    const promoted = await changeUserRole({ actor: sessionActor(first), userId: second.id, role: "MAINTAINER", reason });
    expect(promoted).toEqual({ userId: second.id, from: "PARTICIPANT", to: "MAINTAINER", isChanged: true });
    const secondAsMaintainer = { ...second, role: "MAINTAINER" as const };

    // a no-op is reported and not logged
    const repeat = await changeUserRole({ actor: sessionActor(first), userId: second.id, role: "MAINTAINER" });
    expect(repeat.isChanged).toBe(false);

    const demoted = await changeUserRole({ actor: sessionActor(secondAsMaintainer), userId: first.id, role: "PARTICIPANT" });
    expect(demoted).toEqual({ userId: first.id, from: "MAINTAINER", to: "PARTICIPANT", isChanged: true });
    expect(await statusOf(() => changeUserRole({ actor: sessionActor(secondAsMaintainer), userId: second.id, role: "PARTICIPANT" }))).toBe(409);
    expect(await maintainerIds()).toEqual([second.id]);

    const log = await db.auditLog.findMany({
      where: { action: "user.role_changed", targetId: { in: [first.id, second.id] } },
      orderBy: { createdAt: "asc" },
      select: { actorId: true, action: true, targetType: true, targetId: true, reason: true, details: true },
    });
    expect(log).toEqual([
      { actorId: first.id, action: "user.role_changed", targetType: "User", targetId: second.id, reason, details: { from: "PARTICIPANT", to: "MAINTAINER", via: "web" } },
      { actorId: second.id, action: "user.role_changed", targetType: "User", targetId: first.id, reason: null, details: { from: "MAINTAINER", to: "PARTICIPANT", via: "web" } },
    ]);
    await db.user.update({ where: { id: second.id }, data: { role: "PARTICIPANT" } });
  });

  it("two maintainers demoting each other at once: exactly one succeeds", async () => {
    const left = await track("left", "MAINTAINER");
    const right = await track("right", "MAINTAINER");
    const results = await Promise.allSettled([
      changeUserRole({ actor: sessionActor(left), userId: right.id, role: "PARTICIPANT" }),
      changeUserRole({ actor: sessionActor(right), userId: left.id, role: "PARTICIPANT" }),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((result) => result.status === "rejected");
    expect(rejected?.status === "rejected" && toHttpStatus(rejected.reason)).toBe(409);
    expect(await maintainerIds()).toHaveLength(1);
    await db.user.updateMany({ where: { id: { in: [left.id, right.id] } }, data: { role: "PARTICIPANT" } });
  });

  it("participants and unknown targets are refused", async () => {
    const boss = await track("boss", "MAINTAINER");
    const plain = await track("plain");
    expect(await statusOf(() => changeUserRole({ actor: sessionActor(plain), userId: plain.id, role: "MAINTAINER" }))).toBe(403);
    expect(await statusOf(() => changeUserRole({ actor: { kind: "anonymous" }, userId: plain.id, role: "MAINTAINER" }))).toBe(401);
    expect(await statusOf(() => changeUserRole({ actor: sessionActor(boss), userId: "no-such-user", role: "MAINTAINER" }))).toBe(404);
    expect(await statusOf(() => listUsers({ actor: sessionActor(plain) }))).toBe(403);
    const listed = await listUsers({ actor: sessionActor(boss) });
    expect(listed.find((user) => user.id === plain.id)).toMatchObject({ email: plain.email, role: "PARTICIPANT", hasPassword: true });
    await db.user.update({ where: { id: boss.id }, data: { role: "PARTICIPANT" } });
  });
});

describe("GitHub identities", () => {
  it("creates an account for a new verified email, then finds it again", async () => {
    const email = uniqueEmail("gh-new");
    const providerAccountId = `gh-${uniqueSuffix()}`;
    const userId = await linkOAuthAccount({ provider: "github", providerAccountId, verifiedEmail: email.toUpperCase(), name: "Grace Hopper" });
    created.push(userId);
    const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
    expect(user).toMatchObject({ email, displayName: "Grace Hopper", passwordHash: null, role: "PARTICIPANT" });
    await expect(linkOAuthAccount({ provider: "github", providerAccountId, verifiedEmail: email, name: "x" })).resolves.toBe(userId);
  });

  it("links to an existing account with the same verified email", async () => {
    const existing = await track("gh-existing");
    const providerAccountId = `gh-${uniqueSuffix()}`;
    await expect(linkOAuthAccount({ provider: "github", providerAccountId, verifiedEmail: existing.email, name: null })).resolves.toBe(existing.id);
    const accounts = await db.oAuthAccount.findMany({ where: { userId: existing.id } });
    expect(accounts.map((account) => account.providerAccountId)).toEqual([providerAccountId]);
    const unchanged = await db.user.findUniqueOrThrow({ where: { id: existing.id } });
    expect(unchanged.displayName).toBe(existing.displayName);
  });
});
