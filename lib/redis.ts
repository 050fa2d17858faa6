import "server-only";
import { Redis } from "ioredis";
import { getEnv } from "@/lib/env";

/**
 * Redis connections. BullMQ workers need `maxRetriesPerRequest: null`; BullMQ
 * never closes connections it is given, so callers `quit()` what they create.
 */
export function createRedisConnection(options: { forWorker?: boolean } = {}): Redis {
  return new Redis(getEnv().REDIS_URL, {
    maxRetriesPerRequest: options.forWorker ? null : 3,
    enableReadyCheck: true,
    lazyConnect: false,
  });
}

const globalForRedis = globalThis as unknown as { redis?: Redis };

/** A shared connection for short commands (rate limits, queue producers). */
export function getSharedRedis(): Redis {
  globalForRedis.redis ??= createRedisConnection();
  return globalForRedis.redis;
}

export async function closeSharedRedis(): Promise<void> {
  const redis = globalForRedis.redis;
  globalForRedis.redis = undefined;
  await redis?.quit().catch(() => undefined);
}
