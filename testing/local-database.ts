/**
 * The one local-machine guard. Seeding, benchmarks, integration tests and
 * browser tests write thousands of rows, truncate tables or flush Redis: they
 * only ever run against PostgreSQL and Redis on this machine, and the
 * destructive ones only against a throw-away database (name ending in _test)
 * and a Redis logical database other than 0.
 */

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export function isLocalHost(hostname: string): boolean {
  return LOCAL_HOSTS.has(hostname);
}

function parseUrl(variable: string, value: string | undefined, hint: string): URL {
  if (!value) throw new Error(`${variable} is not set: ${hint}`);
  try {
    return new URL(value);
  } catch {
    throw new Error(`${variable} is not a URL: ${value}`);
  }
}

/** The value of `variable` when it is a URL of a server on this machine; throws otherwise. `purpose` ends "refusing to run X". */
export function requireLocalUrl(variable: "DATABASE_URL" | "REDIS_URL", purpose = "browser tests", value: string | undefined = process.env[variable]): string {
  const url = parseUrl(variable, value, `run the ${purpose} with the variables of .data/services.env (see docs/accounts.md)`);
  if (!isLocalHost(url.hostname)) {
    throw new Error(`refusing to run ${purpose} against ${variable} host "${url.hostname}": only 127.0.0.1 or localhost is allowed`);
  }
  return value ?? "";
}

export function isLocalDatabaseUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return /^postgres(ql)?:$/.test(parsed.protocol) && isLocalHost(parsed.hostname);
  } catch {
    return false;
  }
}

/** Throws unless `url` is a postgresql:// URL of a local server (seeding and benchmarks). */
export function assertLocalDatabaseUrl(url: string | undefined): string {
  if (url === undefined || url === "") {
    throw new Error("no database URL: pass --database-url or set DATABASE_URL");
  }
  if (!isLocalDatabaseUrl(url)) {
    const host = (() => {
      try {
        return new URL(url).hostname;
      } catch {
        return "an unreadable URL";
      }
    })();
    throw new Error(`refusing to write to a non-local database (${host}); use a PostgreSQL on 127.0.0.1 or localhost`);
  }
  return url;
}

/** The same server, another database name: postgresql://u:p@host:port/NAME. */
export function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export function testDatabaseName(url: URL): string {
  return decodeURIComponent(url.pathname.replace(/^\//, ""));
}

const TEST_SERVICES_HINT = "run the integration tests with a local *_test database and Redis db 1 (see tests/integration/support/README.md)";

/** Throws unless DATABASE_URL points at a local database whose name ends with "_test" (it is about to be emptied). */
export function assertTestDatabase(databaseUrl: string | undefined = process.env.DATABASE_URL, purpose = "destructive integration tests"): void {
  const url = parseUrl("DATABASE_URL", databaseUrl, TEST_SERVICES_HINT);
  const name = testDatabaseName(url);
  if (!isLocalHost(url.hostname) || !name.endsWith("_test")) {
    throw new Error(`refusing to run ${purpose} against ${url.hostname}/${name}: DATABASE_URL must name a local database ending in _test`);
  }
}

/** The logical database number of a redis:// URL (0 when the path is empty). */
export function redisDbIndex(url: URL): number {
  const raw = url.pathname.replace(/^\//, "");
  return raw === "" ? 0 : Number(raw);
}

/** Throws unless REDIS_URL points at a local Redis and a logical database other than 0. */
export function assertTestRedis(redisUrl: string | undefined = process.env.REDIS_URL): void {
  const url = parseUrl("REDIS_URL", redisUrl, TEST_SERVICES_HINT);
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
