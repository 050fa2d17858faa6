/**
 * Prepares the browser-test database: empties it, flushes the test Redis
 * database, and imports the bundled demo release (which queues its baselines
 * for the worker that Playwright starts). Refuses anything but a local
 * database whose name ends in "_test".
 */
import { db } from "@/lib/platform/db";
import { getEnv } from "@/lib/platform/env";
import { getSharedRedis } from "@/lib/platform/redis";
import { runBaselines } from "@/lib/domain/scoring/run-baselines";
import { importRelease } from "@/lib/domain/releases/import-release";
import { runMain } from "@/lib/web/server/close-connections";
import { assertTestDatabase, requireLocalUrl } from "@/testing/local-database";

const DEMO_RELEASE_DIR = "data/demo-release";

function assertDisposableDatabase(): void {
  assertTestDatabase(getEnv().DATABASE_URL, "the browser-test reset");
  requireLocalUrl("REDIS_URL", "the browser-test reset", getEnv().REDIS_URL);
}

async function main(): Promise<void> {
  assertDisposableDatabase();
  const tables = await db.$queryRaw<{ tablename: string }[]>`SELECT tablename::text AS tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`;
  await db.$executeRawUnsafe(`TRUNCATE ${tables.map((table) => `"${table.tablename}"`).join(", ")} CASCADE`);
  await getSharedRedis().flushdb();
  const imported = await importRelease({ dir: DEMO_RELEASE_DIR, activate: true });
  const baselines = await runBaselines(imported.releaseId);
  console.log(`e2e: imported ${imported.name} ${imported.version}; queued ${baselines.length} baseline submissions`);
}

runMain(main);
