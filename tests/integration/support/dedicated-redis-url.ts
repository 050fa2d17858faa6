/**
 * Imported first by a test whose whole process (web side and workers) must use
 * a Redis of its own that the test stops and restarts: REDIS_URL has to point
 * at it before anything reads (and caches) lib/platform/env.ts. The port is this
 * checkout's REDIS_PORT + 101, so parallel checkouts do not race for one.
 */
export const DEDICATED_REDIS_PORT = Number(process.env.REDIS_PORT ?? 63799) + 101;
process.env.REDIS_URL = `redis://127.0.0.1:${DEDICATED_REDIS_PORT}/1`;
