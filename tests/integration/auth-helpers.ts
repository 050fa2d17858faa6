import { randomBytes } from "node:crypto";
import { encode } from "next-auth/jwt";
import { db } from "@/lib/db";
import type { Role } from "@/lib/generated/prisma";
import { createUser } from "@/lib/users/create-user";
import type { UserActor } from "@/lib/auth/actor";

/**
 * Shared set-up for the auth integration tests. They run against the real
 * PostgreSQL and Redis of scripts/ops/services.sh, in a database whose name ends
 * in _test (see docs/accounts.md for the commands).
 */
export const TEST_AUTH_SECRET = "integration-test-secret-0123456789";

export function assertTestDatabase(): void {
  const url = new URL(process.env.DATABASE_URL ?? "");
  const isLocal = ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
  if (!isLocal || !url.pathname.endsWith("_test")) {
    throw new Error(`refusing to run auth integration tests against ${url.hostname}${url.pathname}: use a local *_test database`);
  }
}

export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
}

export function uniqueEmail(label: string): string {
  return `${label}-${uniqueSuffix()}@int.example.org`;
}

export type TestUser = { id: string; email: string; password: string; displayName: string; role: Role };

export async function createTestUser(label: string, role: Role = "PARTICIPANT"): Promise<TestUser> {
  const password = `pw-${randomBytes(9).toString("base64url")}`;
  const displayName = `${label} ${uniqueSuffix()}`.slice(0, 60);
  const user = await createUser({ email: uniqueEmail(label), displayName, password, role });
  return { id: user.id, email: user.email, password, displayName, role };
}

export function sessionActor(user: { id: string; displayName: string; role: Role }): UserActor {
  return { kind: "user", userId: user.id, role: user.role, displayName: user.displayName, via: "session" };
}

/** A next-auth session cookie for the user, as the browser would send it. */
export async function sessionCookieFor(userId: string): Promise<string> {
  const token = await encode({ token: { sub: userId }, secret: TEST_AUTH_SECRET, maxAge: 3600 });
  return `next-auth.session-token=${token}`;
}

export async function deleteTestUsers(ids: string[]): Promise<void> {
  if (ids.length > 0) await db.user.deleteMany({ where: { id: { in: ids } } });
}
