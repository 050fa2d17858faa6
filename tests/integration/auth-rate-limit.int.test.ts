import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { signInWithPassword } from "@/lib/domain/accounts/sign-in-with-password";
import { db } from "@/lib/platform/db";
import { AppError, toHttpStatus } from "@/lib/core/errors";
import { AUTH_RATE_LIMITS } from "@/lib/domain/accounts/auth-limits";
import { consumeRateLimit, rateLimitKey, resetRateLimit } from "@/lib/platform/rate-limit/fixed-window";
import { getSharedRedis } from "@/lib/platform/redis";
import { registerUser } from "@/lib/domain/accounts/register-user";
import { assertTestDatabase } from "@/testing/local-database";
import { createTestUser, deleteTestUsers, type TestUser, uniqueEmail, uniqueSuffix } from "@/testing/test-users";
import { waitFor } from "./support/wait";

const created: string[] = [];

function uniqueIp(): string {
  // TEST-NET-3 addresses, random per test so runs never share a counter
  return `203.0.113.${randomBytes(1)[0]}-${uniqueSuffix()}`;
}

async function expectRateLimited(run: () => Promise<unknown>, minutes: number): Promise<void> {
  const error = await run().then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected a rate-limit AppError, got ${String(error)}`);
  expect(toHttpStatus(error)).toBe(429);
  expect(error.message).toBe(`Too many attempts, try again in ${minutes} minutes.`);
  expect(error.retryAfterSeconds).toBeGreaterThan(0);
}

let ada: TestUser;

beforeAll(async () => {
  assertTestDatabase();
  ada = await createTestUser({ label: "rate-ada" });
  created.push(ada.id);
});

afterAll(async () => {
  await deleteTestUsers(created);
  await db.$disconnect();
  await getSharedRedis().quit();
});

describe("fixed-window counter (Redis)", () => {
  const rule = { name: `test:${uniqueSuffix()}`, limit: 3, windowSeconds: 60 };

  it("allows the limit, refuses the next attempt and reports when to retry", async () => {
    const results = [];
    for (let attempt = 0; attempt < 4; attempt += 1) results.push(await consumeRateLimit(rule, "client-a"));
    expect(results.map((result) => result.isAllowed)).toEqual([true, true, true, false]);
    expect(results.map((result) => result.count)).toEqual([1, 2, 3, 4]);
    expect(results[3]?.retryAfterSeconds).toBeGreaterThan(0);
    expect(results[3]?.retryAfterSeconds).toBeLessThanOrEqual(60);
    // another identifier has its own counter
    expect((await consumeRateLimit(rule, "client-b")).isAllowed).toBe(true);
  });

  it("sets an expiry with the first hit and stores no plain identifier", async () => {
    const key = rateLimitKey(rule, "someone@example.org");
    expect(key).not.toContain("someone");
    await consumeRateLimit(rule, "someone@example.org");
    const ttl = await getSharedRedis().pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it("starts over when the window has passed", async () => {
    const shortRule = { name: `test-short:${uniqueSuffix()}`, limit: 1, windowSeconds: 1 };
    expect((await consumeRateLimit(shortRule, "c")).isAllowed).toBe(true);
    expect((await consumeRateLimit(shortRule, "c")).isAllowed).toBe(false);
    // The window has passed when Redis has expired its counter (PTTL -2: no such key), not after a guessed delay.
    const key = rateLimitKey(shortRule, "c");
    await waitFor(async () => ((await getSharedRedis().pttl(key)) === -2 ? true : undefined), () => `${key} did not expire`, { timeoutMs: 10_000, intervalMs: 20 });
    expect((await consumeRateLimit(shortRule, "c")).isAllowed).toBe(true);
  });

  it("starts over after an explicit reset", async () => {
    expect((await consumeRateLimit(rule, "client-c")).count).toBe(1);
    await resetRateLimit(rule, "client-c");
    expect((await consumeRateLimit(rule, "client-c")).count).toBe(1);
  });
});

describe("sign-in limits", () => {
  it(`per account: ${AUTH_RATE_LIMITS.signInPerAccount.limit} attempts, then refused even with the right password`, async () => {
    const ip = uniqueIp();
    for (let attempt = 0; attempt < AUTH_RATE_LIMITS.signInPerAccount.limit; attempt += 1) {
      // a different address each time: only the account counter can stop this
      await expect(signInWithPassword({ email: ada.email, password: "wrong password", ip: `${ip}-${attempt}` })).resolves.toBeNull();
    }
    await expectRateLimited(() => signInWithPassword({ email: ada.email, password: ada.password, ip }), 15);
    // the account key ignores case and spaces
    await expectRateLimited(() => signInWithPassword({ email: ` ${ada.email.toUpperCase()} `, password: ada.password, ip }), 15);
  });

  it(`per address: ${AUTH_RATE_LIMITS.signInPerIp.limit} attempts over many accounts, then refused`, async () => {
    const ip = uniqueIp();
    for (let attempt = 0; attempt < AUTH_RATE_LIMITS.signInPerIp.limit; attempt += 1) {
      await expect(signInWithPassword({ email: uniqueEmail("nobody"), password: "whatever-password", ip })).resolves.toBeNull();
    }
    await expectRateLimited(() => signInWithPassword({ email: uniqueEmail("nobody"), password: "whatever-password", ip }), 15);
    // another address is not affected
    await expect(signInWithPassword({ email: uniqueEmail("nobody"), password: "whatever-password", ip: uniqueIp() })).resolves.toBeNull();
  });

  it("a successful sign-in resets the account's counter", async () => {
    const bob = await createTestUser({ label: "rate-bob" });
    created.push(bob.id);
    const ip = uniqueIp();
    const limit = AUTH_RATE_LIMITS.signInPerAccount.limit;
    for (let attempt = 0; attempt < limit - 1; attempt += 1) {
      await signInWithPassword({ email: bob.email, password: "wrong password", ip });
    }
    await expect(signInWithPassword({ email: bob.email, password: bob.password, ip })).resolves.toEqual({
      id: bob.id,
      displayName: bob.displayName,
    });
    for (let attempt = 0; attempt < limit - 1; attempt += 1) {
      await expect(signInWithPassword({ email: bob.email, password: "wrong password", ip })).resolves.toBeNull();
    }
    await expect(signInWithPassword({ email: bob.email, password: bob.password, ip })).resolves.not.toBeNull();
  });

  it("answers null alike for an unknown email, a wrong password and malformed input", async () => {
    const ip = uniqueIp();
    await expect(signInWithPassword({ email: uniqueEmail("ghost"), password: "some password", ip })).resolves.toBeNull();
    await expect(signInWithPassword({ email: ada.email.replace("@", "+x@"), password: ada.password, ip })).resolves.toBeNull();
    await expect(signInWithPassword({ email: "not an email", password: "x", ip })).resolves.toBeNull();
    await expect(signInWithPassword({ email: undefined, password: undefined, ip })).resolves.toBeNull();
  });
});

describe("sign-up limits and enumeration", () => {
  it(`per account: ${AUTH_RATE_LIMITS.signUpPerAccount.limit} attempts per email, then refused`, async () => {
    const email = uniqueEmail("signup");
    const ip = uniqueIp();
    for (let attempt = 0; attempt < AUTH_RATE_LIMITS.signUpPerAccount.limit; attempt += 1) {
      await registerUser({ email, password: "long enough password", displayName: "Sign Up", affiliation: "", ip: `${ip}-${attempt}` });
    }
    await expectRateLimited(
      () => registerUser({ email, password: "long enough password", displayName: "Sign Up", affiliation: "", ip }),
      60,
    );
    const user = await db.user.findUniqueOrThrow({ where: { email }, select: { id: true } });
    created.push(user.id);
  });

  it(`per address: ${AUTH_RATE_LIMITS.signUpPerIp.limit} sign-ups, then refused`, async () => {
    const ip = uniqueIp();
    const emails = Array.from({ length: AUTH_RATE_LIMITS.signUpPerIp.limit + 1 }, () => uniqueEmail("signup-ip"));
    for (const email of emails.slice(0, -1)) {
      await registerUser({ email, password: "long enough password", displayName: "Sign Up", affiliation: "", ip });
    }
    await expectRateLimited(
      () => registerUser({ email: emails.at(-1) ?? "", password: "long enough password", displayName: "Sign Up", affiliation: "", ip }),
      60,
    );
    const users = await db.user.findMany({ where: { email: { in: emails } }, select: { id: true } });
    expect(users).toHaveLength(AUTH_RATE_LIMITS.signUpPerIp.limit);
    created.push(...users.map((user) => user.id));
  });

  it("signing up with a taken email changes nothing and signs no one in", async () => {
    const before = await db.user.findUniqueOrThrow({ where: { id: ada.id } });
    await expect(
      registerUser({ email: ada.email, password: "attacker password", displayName: "Attacker", affiliation: "Evil", ip: uniqueIp() }),
    ).resolves.toBeNull();
    const after = await db.user.findUniqueOrThrow({ where: { id: ada.id } });
    expect(after).toEqual(before);
  });
});
