import "server-only";
import { Redis } from "ioredis";
import { getEnv } from "@/lib/platform/env";
import { logger } from "@/lib/platform/logger";

const ERROR_LOG_INTERVAL_MS = 30_000;

/**
 * One line per connection and 30 s while Redis is unreachable, instead of a
 * stack trace per reconnect attempt (ioredis prints one for every "error"
 * nobody listens to).
 */
export function logConnectionErrors(label: string): (error: Error) => void {
  let lastLoggedAt = 0;
  let suppressed = 0;
  return (error) => {
    const now = Date.now();
    if (now - lastLoggedAt < ERROR_LOG_INTERVAL_MS) {
      suppressed += 1;
      return;
    }
    logger.warn({ connection: label, suppressed }, `Redis ${label}: ${error.message}${suppressed > 0 ? ` (${suppressed} more since the last report)` : ""}`);
    lastLoggedAt = now;
    suppressed = 0;
  };
}

/**
 * Redis connections. BullMQ workers need `maxRetriesPerRequest: null`; BullMQ
 * never closes connections it is given, so callers `quit()` what they create.
 */
export function createRedisConnection(options: { forWorker?: boolean } = {}): Redis {
  const redis = new Redis(getEnv().REDIS_URL, {
    maxRetriesPerRequest: options.forWorker ? null : 3,
    enableReadyCheck: true,
    lazyConnect: false,
  });
  redis.on("error", logConnectionErrors(options.forWorker ? "worker connection" : "shared connection"));
  return redis;
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
