import { Redis } from "ioredis";
import { db } from "@/lib/platform/db";
import { clearGoldCache } from "@/lib/domain/scoring/load-gold";
import { assertTestDatabase, assertTestRedis } from "@/testing/local-database";

/**
 * Empties every application table of the test database (not Prisma's
 * migration table) in one TRUNCATE ... CASCADE, so each test file starts from
 * a known state.
 */
export async function resetDatabase(): Promise<void> {
  assertTestDatabase();
  const rows = await db.$queryRaw<{ tablename: string }[]>`
    SELECT tablename::text AS tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`;
  if (rows.length > 0) {
    const tables = rows.map((row) => `"public"."${row.tablename.replaceAll('"', '""')}"`).join(", ");
    await db.$executeRawUnsafe(`TRUNCATE TABLE ${tables} RESTART IDENTITY CASCADE`);
  }
  clearGoldCache();
}

/** FLUSHDB on the test Redis logical database (never db 0 of a shared server). */
export async function flushTestRedis(redisUrl: string | undefined = process.env.REDIS_URL): Promise<void> {
  assertTestRedis(redisUrl);
  const client = new Redis(redisUrl ?? "", { maxRetriesPerRequest: 3, lazyConnect: true });
  try {
    await client.connect();
    await client.flushdb();
  } finally {
    client.disconnect();
  }
}

/** Database and Redis both, guarded. */
export async function resetTestState(): Promise<void> {
  await resetDatabase();
  await flushTestRedis();
}
