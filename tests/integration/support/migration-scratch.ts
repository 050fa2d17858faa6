import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { assertTestDatabase, withDatabaseName } from "@/testing/local-database";
import { REPO_ROOT } from "./processes";

const MIGRATIONS = path.join(REPO_ROOT, "prisma", "migrations");

function clientFor(url: string): pg.Client {
  const parsed = new URL(url);
  return new pg.Client({ host: parsed.hostname, port: Number(parsed.port), user: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password), database: parsed.pathname.slice(1) });
}

/**
 * A scratch database on the test server with every migration before `target`
 * applied, for a test that fills it as the old schema left rows, then runs
 * `migrate()` (the target migration) and reads what it did.
 */
export interface MigrationScratch {
  client: pg.Client;
  migrate(): Promise<void>;
  drop(): Promise<void>;
}

export async function openMigrationScratch(target: string, scratchName: string): Promise<MigrationScratch> {
  assertTestDatabase();
  const url = process.env.DATABASE_URL ?? "";
  const admin = clientFor(url);
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${scratchName}"`);
  await admin.query(`CREATE DATABASE "${scratchName}"`);
  const client = clientFor(withDatabaseName(url, scratchName));
  await client.connect();
  const apply = async (name: string) => {
    await client.query(await readFile(path.join(MIGRATIONS, name, "migration.sql"), "utf8"));
  };
  const names = (await readdir(MIGRATIONS, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  for (const name of names.filter((candidate) => candidate < target)) await apply(name);
  return {
    client,
    migrate: () => apply(target),
    async drop() {
      await client.end();
      await admin.query(`DROP DATABASE IF EXISTS "${scratchName}"`);
      await admin.end();
    },
  };
}
