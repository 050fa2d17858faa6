import pg from "pg";
import { assertTestDatabase, testDatabaseName, withDatabaseName } from "./local-database";

/**
 * One database per concurrently running test process. The integration files running at once
 * and the Playwright workers each get a database of their own on the test server, named after
 * the base test database (`irc_bench_test` + `e2e_w0` -> `irc_bench_e2e_w0_test`), made in
 * seconds as a copy of a template (`CREATE DATABASE ... TEMPLATE ...`): no two running tests
 * read or write the same rows. The Redis side is `redisUrlWithDb` (a logical database each).
 */

/** A database beside the base test database: `<base without _test>_<label>_test`, so the test guards accept it. */
export function siblingTestDatabaseUrl(baseUrl: string, label: string): string {
  if (!/^[a-z0-9_]+$/.test(label)) throw new Error(`unusual database label "${label}"`);
  const base = testDatabaseName(new URL(baseUrl)).replace(/_test$/, "");
  return withDatabaseName(baseUrl, `${base}_${label}_test`);
}

/** The same Redis server, another logical database (1-15 on a default server). */
export function redisUrlWithDb(redisUrl: string, index: number): string {
  const url = new URL(redisUrl);
  url.pathname = `/${index}`;
  return url.toString();
}

function maintenanceClient(url: string): pg.Client {
  const parsed = new URL(url);
  return new pg.Client({
    host: parsed.hostname,
    port: Number(parsed.port || 5432),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: "postgres",
  });
}

function quoted(name: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`unusual database name "${name}"`);
  return `"${name}"`;
}

/** PostgreSQL refuses to copy a template another session is connected to (SQLSTATE 55006): such a session is ending. */
function isTemplateBusy(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && (error as { code?: string }).code === "55006";
}

/**
 * Drops the database `url` names (ending any session on it) and creates it again, empty or as a
 * copy of `templateUrl`'s database. Local `*_test` databases only.
 */
export async function recreateTestDatabase(url: string, templateUrl?: string): Promise<void> {
  assertTestDatabase(url, "recreating a test database");
  if (templateUrl !== undefined) assertTestDatabase(templateUrl, "copying a template test database");
  const name = quoted(testDatabaseName(new URL(url)));
  const template = templateUrl === undefined ? "" : ` TEMPLATE ${quoted(testDatabaseName(new URL(templateUrl)))}`;
  const client = maintenanceClient(url);
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    // Sessions of a process that just ended may take a moment to leave the template: retry on that error only.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await client.query(`CREATE DATABASE ${name}${template}`);
        return;
      } catch (error) {
        if (!isTemplateBusy(error) || attempt >= 50) throw error;
        await client.query("SELECT pg_sleep(0.1)");
      }
    }
  } finally {
    await client.end();
  }
}

/** Whether the database `url` names exists. */
export async function testDatabaseExists(url: string): Promise<boolean> {
  const client = maintenanceClient(url);
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [testDatabaseName(new URL(url))]);
    return (found.rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}
