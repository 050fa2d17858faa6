/**
 * Once per integration run (vitest `globalSetup`), before any file: one database per vitest worker,
 * a copy of the migrated test database (`CREATE DATABASE irc_bench_int<N>_test TEMPLATE irc_bench_test`,
 * seconds), for ./pool-services.ts to point that worker's files at.
 */
import { assertTestDatabase } from "@/testing/local-database";
import { recreateTestDatabase, siblingTestDatabaseUrl } from "@/testing/test-databases";
import { integrationPoolLabel } from "./pool-label";

export default async function setup({ config }: { config: { maxWorkers: number } }): Promise<void> {
  const base = process.env.DATABASE_URL;
  assertTestDatabase(base, "the integration tests' databases");
  const workers = Math.max(1, config.maxWorkers);
  for (let pool = 1; pool <= workers; pool += 1) {
    await recreateTestDatabase(siblingTestDatabaseUrl(base ?? "", integrationPoolLabel(pool)), base);
  }
}
