import { redisUrlWithDb, siblingTestDatabaseUrl } from "./test-databases";

/**
 * What each Playwright worker owns (docs/testing.md): a database copied from the template that
 * scripts/ci/e2e-prepare.ts builds once per run (migrations, the demo release, its baselines
 * scored), a Redis logical database (so its scoring worker takes only its own jobs, and its
 * caches and rate limits are its own), a data directory, and a web server and scoring worker on
 * a port of its own (e2e/fixtures/worker-server.ts). The integration files running at once use
 * Redis databases 1-7 (tests/integration/support/pool-services.ts); the browser tests 8-15.
 */
export const E2E_TEMPLATE_REDIS_DB = 8;
const E2E_FIRST_WORKER_REDIS_DB = 9;
export const E2E_MAX_WORKERS = 15 - E2E_FIRST_WORKER_REDIS_DB + 1;

export type E2eServices = { databaseUrl: string; redisUrl: string };

/** The base test services (`DATABASE_URL` naming a *_test database, `REDIS_URL`) the per-worker ones are derived from. */
export function e2eBaseServices(env: NodeJS.ProcessEnv = process.env): E2eServices {
  const databaseUrl = env.E2E_BASE_DATABASE_URL ?? env.DATABASE_URL;
  const redisUrl = env.E2E_BASE_REDIS_URL ?? env.REDIS_URL;
  if (!databaseUrl || !redisUrl) throw new Error("DATABASE_URL and REDIS_URL must name the test services (npm run test:e2e sets them from .data/services.env)");
  return { databaseUrl, redisUrl };
}

/** The template every worker's database is copied from. */
export function e2eTemplateServices(base: E2eServices): E2eServices {
  return { databaseUrl: siblingTestDatabaseUrl(base.databaseUrl, "e2e_template"), redisUrl: redisUrlWithDb(base.redisUrl, E2E_TEMPLATE_REDIS_DB) };
}

/** The services of the Playwright worker with this parallel index (0 .. workers - 1). */
export function e2eWorkerServices(base: E2eServices, parallelIndex: number): E2eServices {
  if (!Number.isInteger(parallelIndex) || parallelIndex < 0 || parallelIndex >= E2E_MAX_WORKERS) {
    throw new Error(`Playwright worker ${parallelIndex}: at most ${E2E_MAX_WORKERS} workers have a Redis database of their own`);
  }
  return {
    databaseUrl: siblingTestDatabaseUrl(base.databaseUrl, `e2e_w${parallelIndex}`),
    redisUrl: redisUrlWithDb(base.redisUrl, E2E_FIRST_WORKER_REDIS_DB + parallelIndex),
  };
}

/** E2E_WORKERS when set, else one per core the machine offers, within 1 .. E2E_MAX_WORKERS. */
export function e2eWorkerCount(env: NodeJS.ProcessEnv, cores: number): number {
  const wanted = env.E2E_WORKERS === undefined || env.E2E_WORKERS === "" ? cores : Number(env.E2E_WORKERS);
  if (!Number.isInteger(wanted) || wanted < 1) throw new Error(`E2E_WORKERS must be a whole number of at least 1, not "${env.E2E_WORKERS}"`);
  return Math.min(wanted, E2E_MAX_WORKERS);
}
