/**
 * The integration tests truncate tables and flush Redis. These guards make
 * sure that only ever happens to a local, throw-away database (name ending in
 * _test) and a local Redis logical database other than 0.
 */

import { isLocalHost } from "@/lib/leaderboard/local-database";

function parseUrl(name: string, value: string | undefined): URL {
  if (!value) throw new Error(`${name} is not set: run the integration tests with a local *_test database and Redis db 1 (see tests/integration/support/README.md)`);
  try {
    return new URL(value);
  } catch {
    throw new Error(`${name} is not a URL: ${value}`);
  }
}

export function testDatabaseName(url: URL): string {
  return decodeURIComponent(url.pathname.replace(/^\//, ""));
}

/** Throws unless DATABASE_URL points at a local database whose name ends with "_test". */
export function assertTestDatabase(databaseUrl: string | undefined = process.env.DATABASE_URL): void {
  const url = parseUrl("DATABASE_URL", databaseUrl);
  const name = testDatabaseName(url);
  if (!isLocalHost(url.hostname) || !name.endsWith("_test")) {
    throw new Error(`refusing to run destructive integration tests against ${url.hostname}/${name}: DATABASE_URL must name a local database ending in _test`);
  }
}

/** The logical database number of a redis:// URL (0 when the path is empty). */
export function redisDbIndex(url: URL): number {
  const raw = url.pathname.replace(/^\//, "");
  return raw === "" ? 0 : Number(raw);
}

/** Throws unless REDIS_URL points at a local Redis and a logical database other than 0. */
export function assertTestRedis(redisUrl: string | undefined = process.env.REDIS_URL): void {
  const url = parseUrl("REDIS_URL", redisUrl);
  if (!isLocalHost(url.hostname)) {
    throw new Error(`refusing to run integration tests against Redis on ${url.hostname}: REDIS_URL must be local`);
  }
  const index = redisDbIndex(url);
  if (!Number.isInteger(index) || index === 0) {
    throw new Error(`refusing to use Redis logical database ${url.pathname || "0"}: the tests use db 1 (REDIS_URL=redis://127.0.0.1:PORT/1)`);
  }
}

/** Both guards: call first in every integration file's beforeAll. */
export function assertTestServices(): void {
  assertTestDatabase();
  assertTestRedis();
}
