import { DEDICATED_REDIS_PORT } from "./support/dedicated-redis-url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/health/route";
import { db } from "@/lib/platform/db";
import { closeSharedRedis } from "@/lib/platform/redis";
import type { HealthReport } from "@/lib/web/server/check-health";
import { closeScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { killAllChildren } from "./support/processes";
import { DedicatedRedis } from "./support/redis-server";
import { resetTestState } from "./support/reset";
import { waitFor } from "./support/wait";
import { startWorker, type WorkerProcess } from "./support/workers";

/**
 * Redis goes down under a running worker and a web process (this one):
 * GET /api/health turns 503 naming Redis, the worker logs one line per
 * connection instead of a stack trace per reconnect, and both recover when
 * Redis is back. The whole file runs against a redis-server of its own.
 */
let redis: DedicatedRedis;
let worker: WorkerProcess;

beforeAll(async () => {
  redis = await DedicatedRedis.create(DEDICATED_REDIS_PORT);
  if (redis.url !== process.env.REDIS_URL) throw new Error(`port ${DEDICATED_REDIS_PORT} is taken; the dedicated Redis would be ${redis.url}`);
  await redis.start();
  assertTestServices();
  await resetTestState();
  worker = await startWorker({ WORKER_CONCURRENCY: "1" });
});

afterAll(async () => {
  await killAllChildren();
  await closeScoringQueue().catch(() => undefined);
  await closeSharedRedis();
  await redis?.destroy();
  await db.$disconnect();
});

async function health(): Promise<{ status: number; body: HealthReport }> {
  const response = await GET(new Request("http://localhost/api/health"));
  return { status: response.status, body: (await response.json()) as HealthReport };
}

function healthWith(status: number): () => Promise<{ status: number; body: HealthReport } | undefined> {
  return async () => {
    const answer = await health();
    return answer.status === status ? answer : undefined;
  };
}

describe("a Redis outage", () => {
  it("turns /api/health 503 naming Redis, logs a line per connection, not a stack per retry, and recovers", async () => {
    await waitFor(healthWith(200), () => "health did not turn 200 with the worker running", { timeoutMs: 30_000, workers: [worker] });
    const linesBefore = worker.handle.lines.length;

    await redis.shutdown();
    const degraded = await waitFor(healthWith(503), () => "health stayed 200 with Redis down", { timeoutMs: 30_000 });
    expect(degraded.body.database.ok).toBe(true);
    expect(degraded.body.redis.ok).toBe(false);
    expect(degraded.body.queue.ok).toBe(false);
    expect(degraded.body.problems.join(" ")).toMatch(/Redis/);
    // Several reconnect attempts of every connection (ioredis retries within 2 s) happen while the outage lasts.
    await waitFor(
      async () => (worker.handle.lines.slice(linesBefore).some((line) => line.includes("ECONNREFUSED")) ? true : undefined),
      () => "the worker logged nothing about the outage",
      { timeoutMs: 30_000, workers: [worker] },
    );
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    const outage = worker.handle.lines.slice(linesBefore);
    const refused = outage.filter((line) => line.includes("ECONNREFUSED"));
    // One line per connection (worker, its blocking connection, the shared one, the queue, the heartbeat) per 30 s.
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThanOrEqual(6);
    for (const line of refused) expect(JSON.parse(line)).toMatchObject({ level: 40 });
    expect(outage.filter((line) => /^\s+at /.test(line) || line.includes("Unhandled error event"))).toEqual([]);

    await redis.start();
    const recovered = await waitFor(healthWith(200), () => "health did not recover after Redis came back", { timeoutMs: 60_000, workers: [worker] });
    expect(recovered.body.workers.alive).toBe(1);
  });
});
