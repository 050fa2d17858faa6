/**
 * Runs first in every integration file (vitest `setupFiles`): points this file's process at the
 * services of its vitest worker, so files running at the same time share no database, Redis
 * database or data directory (docs/testing.md). Worker N (VITEST_POOL_ID, 1 .. maxWorkers) uses
 * the database `irc_bench_int<N>_test` (copied from the migrated test database by ./global-setup.ts),
 * Redis logical database N and `IRC_DATA_DIR/int<N>`. Files in one worker run one after another,
 * each resetting what it uses in its beforeAll, as all files did when they ran one at a time.
 */
import path from "node:path";
import { redisUrlWithDb, siblingTestDatabaseUrl } from "@/testing/test-databases";
import { integrationPoolLabel } from "./pool-label";

// A worker runs many files: the base values are kept the first time, so the second file derives from them too.
process.env.INTEGRATION_BASE_DATABASE_URL ??= process.env.DATABASE_URL;
process.env.INTEGRATION_BASE_REDIS_URL ??= process.env.REDIS_URL;
process.env.INTEGRATION_BASE_DATA_DIR ??= process.env.IRC_DATA_DIR ?? path.resolve(".data", "test-store");

const pool = Number(process.env.VITEST_POOL_ID ?? "1");
process.env.DATABASE_URL = siblingTestDatabaseUrl(process.env.INTEGRATION_BASE_DATABASE_URL ?? "", integrationPoolLabel(pool));
process.env.REDIS_URL = redisUrlWithDb(process.env.INTEGRATION_BASE_REDIS_URL ?? "", pool);
process.env.IRC_DATA_DIR = path.join(process.env.INTEGRATION_BASE_DATA_DIR, integrationPoolLabel(pool));
