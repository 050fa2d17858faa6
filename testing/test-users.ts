import { randomBytes } from "node:crypto";
import type { UserActor } from "../lib/domain/accounts/actor";
import { hashPassword } from "../lib/domain/accounts/password";
import type { Role } from "../lib/platform/generated/prisma";
import { generateApiToken } from "../lib/core/accounts/token-format";
import { getTestPool } from "./test-database-pool";

/**
 * Users, API tokens and session actors for the integration tests (vitest) and
 * the browser tests (Playwright). Rows are written with plain SQL through
 * testing/test-database-pool.ts, so the same code runs in both.
 */

export type TestUser = { id: string; email: string; password: string | null; displayName: string; role: Role };
export type TestUserWithPassword = TestUser & { password: string };

export type TestUserFields = {
  /** Prefix of the generated email and display name, so failures say whose account it was. */
  label?: string;
  role?: Role;
  displayName?: string;
};

export type CreateTestUserOptions = TestUserFields & ({ password?: string; withoutPassword?: false } | { password?: never; withoutPassword: true });

/** cuid-shaped ids, like the ones Prisma generates. */
function newId(): string {
  const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  const bytes = randomBytes(24);
  return `c${Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join("")}`;
}

export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
}

export function uniqueEmail(label = "user"): string {
  return `${label}-${uniqueSuffix()}@test.example.org`;
}

/**
 * Inserts a user. With a password (the one given, or a random one) it is hashed
 * exactly as the app does (lib/domain/accounts/password.ts), so the user can sign in;
 * `withoutPassword` skips the deliberately slow hash for tests that never sign in.
 */
export async function createTestUser(options: CreateTestUserOptions & { withoutPassword: true }): Promise<TestUser & { password: null }>;
export async function createTestUser(options?: CreateTestUserOptions): Promise<TestUserWithPassword>;
export async function createTestUser(options: CreateTestUserOptions = {}): Promise<TestUser> {
  const label = options.label ?? "user";
  const password = options.withoutPassword ? null : (options.password ?? `pw-${randomBytes(12).toString("base64url")}`);
  const user: TestUser = {
    id: newId(),
    email: uniqueEmail(label.replace(/\s+/g, "-")),
    password,
    displayName: options.displayName ?? `${label} ${uniqueSuffix()}`.slice(0, 60),
    role: options.role ?? "PARTICIPANT",
  };
  await getTestPool().query(
    `INSERT INTO "User" ("id", "email", "displayName", "passwordHash", "role") VALUES ($1, $2, $3, $4, $5::"Role")`,
    [user.id, user.email, user.displayName, password === null ? null : await hashPassword(password), user.role],
  );
  return user;
}

export async function deleteTestUsers(ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await getTestPool().query(`DELETE FROM "User" WHERE "id" = ANY($1::text[])`, [ids]);
}

/** The actor a signed-in browser session of this user has. */
export function sessionActor(user: Pick<TestUser, "id" | "displayName" | "role">): UserActor {
  return { kind: "user", userId: user.id, role: user.role, displayName: user.displayName, via: "session" };
}

export type TestApiToken = { id: string; token: string };

/** An API token stored the way lib/domain/accounts/create-api-token.ts stores it (SHA-256 only). */
export async function createTestApiToken(userId: string, options: { name?: string; expiresAt?: Date } = {}): Promise<TestApiToken> {
  const generated = generateApiToken();
  const id = newId();
  await getTestPool().query(
    `INSERT INTO "ApiToken" ("id", "userId", "name", "tokenHash", "prefix", "expiresAt") VALUES ($1, $2, $3, $4, $5, $6)`,
    [id, userId, options.name ?? "test token", generated.tokenHash, generated.prefix, options.expiresAt ?? null],
  );
  return { id, token: generated.token };
}

export async function findUserRole(userId: string): Promise<Role | null> {
  const result = await getTestPool().query<{ role: Role }>(`SELECT "role" FROM "User" WHERE "id" = $1`, [userId]);
  return result.rows[0]?.role ?? null;
}
