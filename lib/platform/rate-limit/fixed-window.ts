import "server-only";
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { getSharedRedis } from "@/lib/platform/redis";

/**
 * Fixed-window counters in Redis, shared by every web process. One Lua script
 * does INCR and sets the expiry on the first hit, atomically, so a crash
 * between the two cannot leave a counter that never expires.
 */
export type RateLimitRule = {
  /** Short name that becomes part of the key ("sign-in:ip"). */
  name: string;
  /** Attempts allowed per window; the next one is refused. */
  limit: number;
  windowSeconds: number;
};

type RateLimitResult = {
  isAllowed: boolean;
  count: number;
  limit: number;
  /** Seconds until the window resets (at least 1). */
  retryAfterSeconds: number;
};

const RATE_LIMIT_KEY_PREFIX = "irc:rl:";

const CONSUME_SCRIPT = `
local count = redis.call("INCR", KEYS[1])
if count == 1 then
  redis.call("PEXPIRE", KEYS[1], ARGV[1])
end
local ttl = redis.call("PTTL", KEYS[1])
if ttl < 0 then
  redis.call("PEXPIRE", KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

/** Identifiers (emails, addresses) are hashed so the keys hold no personal data. */
export function rateLimitKey(rule: RateLimitRule, identifier: string): string {
  const digest = createHash("sha256").update(identifier, "utf8").digest("hex").slice(0, 32);
  return `${RATE_LIMIT_KEY_PREFIX}${rule.name}:${digest}`;
}

function toNumber(value: unknown): number {
  const number = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(number)) throw new Error(`rate limit: unexpected Redis reply ${String(value)}`);
  return number;
}

/** Counts one attempt and says whether it is within the limit. */
export async function consumeRateLimit(
  rule: RateLimitRule,
  identifier: string,
  redis: Redis = getSharedRedis(),
): Promise<RateLimitResult> {
  const reply = await redis.eval(CONSUME_SCRIPT, 1, rateLimitKey(rule, identifier), String(rule.windowSeconds * 1000));
  if (!Array.isArray(reply) || reply.length !== 2) throw new Error("rate limit: unexpected Redis reply");
  const count = toNumber(reply[0]);
  const ttlMs = toNumber(reply[1]);
  return {
    isAllowed: count <= rule.limit,
    count,
    limit: rule.limit,
    retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)),
  };
}

/** Forgets the attempts of one identifier (for example after a successful sign-in). */
export async function resetRateLimit(rule: RateLimitRule, identifier: string, redis: Redis = getSharedRedis()): Promise<void> {
  await redis.del(rateLimitKey(rule, identifier));
}
