/** Integration workers use Redis logical databases 1-7; the browser tests use 8-15 (testing/e2e-workers.ts). */
export const INTEGRATION_MAX_WORKERS = 7;

/** The label of vitest worker `pool`'s database and data directory (`int1`, `int2`, ...). */
export function integrationPoolLabel(pool: number): string {
  if (!Number.isInteger(pool) || pool < 1 || pool > INTEGRATION_MAX_WORKERS) {
    throw new Error(`integration worker ${pool}: at most ${INTEGRATION_MAX_WORKERS} workers have a Redis database of their own`);
  }
  return `int${pool}`;
}

/** INTEGRATION_WORKERS when set, else one per core, within 1 .. INTEGRATION_MAX_WORKERS. */
export function integrationWorkerCount(env: NodeJS.ProcessEnv, cores: number): number {
  const wanted = env.INTEGRATION_WORKERS === undefined || env.INTEGRATION_WORKERS === "" ? cores : Number(env.INTEGRATION_WORKERS);
  if (!Number.isInteger(wanted) || wanted < 1) throw new Error(`INTEGRATION_WORKERS must be a whole number of at least 1, not "${env.INTEGRATION_WORKERS}"`);
  return Math.min(wanted, INTEGRATION_MAX_WORKERS);
}
