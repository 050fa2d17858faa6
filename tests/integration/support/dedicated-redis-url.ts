import { freePort } from "@/testing/free-port";

/**
 * Imported first by a test whose whole process (web side and workers) must use
 * a Redis of its own that the test stops and restarts: REDIS_URL has to point
 * at it before anything reads (and caches) lib/platform/env.ts. The port is one
 * the system just found free, so files running side by side (and other
 * checkouts) do not race for one.
 */
export const DEDICATED_REDIS_PORT = await freePort();
process.env.REDIS_URL = `redis://127.0.0.1:${DEDICATED_REDIS_PORT}/1`;
