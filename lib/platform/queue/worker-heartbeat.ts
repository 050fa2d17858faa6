import "server-only";
import type { Redis } from "ioredis";

/** Every scoring worker's last heartbeat: a sorted set, member "<host>:<pid>", score the time in ms. */
const HEARTBEAT_KEY = "irc:worker-heartbeats";
/**
 * The time (ms) of the newest heartbeat of any worker. A worker that stops
 * cleanly leaves the sorted set, so without this the health check could not
 * tell "a worker ran until a minute ago" from "none has ever run here".
 */
const LAST_HEARTBEAT_KEY = "irc:worker-last-heartbeat";
export const HEARTBEAT_INTERVAL_MS = 5_000;
/** A worker not heard from for this long is taken for gone. */
export const HEARTBEAT_MAX_AGE_MS = 30_000;
/** Entries of workers gone this long are dropped. */
const HEARTBEAT_FORGET_MS = 24 * 60 * 60 * 1000;

export async function recordWorkerHeartbeat(redis: Redis, workerName: string, now: Date = new Date()): Promise<void> {
  await redis
    .multi()
    .zadd(HEARTBEAT_KEY, now.getTime(), workerName)
    .set(LAST_HEARTBEAT_KEY, String(now.getTime()))
    .zremrangebyscore(HEARTBEAT_KEY, "-inf", now.getTime() - HEARTBEAT_FORGET_MS)
    .exec();
}

export async function forgetWorkerHeartbeat(redis: Redis, workerName: string): Promise<void> {
  await redis.zrem(HEARTBEAT_KEY, workerName);
}

/** lastHeartbeatAt: the newest heartbeat of any worker, running or stopped since; null when this Redis has none. */
type WorkerHeartbeats = { lastHeartbeatAt: Date | null; workersAlive: number };

export async function readWorkerHeartbeats(redis: Redis, now: Date = new Date()): Promise<WorkerHeartbeats> {
  const newest = await redis.zrevrange(HEARTBEAT_KEY, 0, 0, "WITHSCORES");
  const workersAlive = await redis.zcount(HEARTBEAT_KEY, now.getTime() - HEARTBEAT_MAX_AGE_MS, "+inf");
  const stored = await redis.get(LAST_HEARTBEAT_KEY);
  const times = [newest[1], stored ?? undefined].map(Number).filter((time) => Number.isFinite(time));
  return { lastHeartbeatAt: times.length === 0 ? null : new Date(Math.max(...times)), workersAlive };
}

/** The names of the workers heard from within HEARTBEAT_MAX_AGE_MS, oldest heartbeat first. */
export async function readLiveWorkerNames(redis: Redis, now: Date = new Date()): Promise<string[]> {
  return redis.zrangebyscore(HEARTBEAT_KEY, now.getTime() - HEARTBEAT_MAX_AGE_MS, "+inf");
}

type WorkerHeartbeat = { name: string; lastHeartbeatAt: Date; isAlive: boolean };

/** Every worker heard from in the last 24 hours, newest heartbeat first. */
export async function listWorkerHeartbeats(redis: Redis, now: Date = new Date()): Promise<WorkerHeartbeat[]> {
  const flat = await redis.zrevrange(HEARTBEAT_KEY, 0, 199, "WITHSCORES");
  const beats: WorkerHeartbeat[] = [];
  for (let index = 0; index + 1 < flat.length; index += 2) {
    const at = Number(flat[index + 1]);
    beats.push({ name: flat[index] ?? "", lastHeartbeatAt: new Date(at), isAlive: now.getTime() - at <= HEARTBEAT_MAX_AGE_MS });
  }
  return beats;
}
