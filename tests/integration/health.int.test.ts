import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/health/route";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import type { HealthReport } from "@/lib/web/server/check-health";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { killAllChildren } from "./support/processes";
import { resetTestState } from "./support/reset";
import { waitFor } from "./support/wait";
import { startWorker } from "./support/workers";

/** GET /api/health: 200 with a running worker, 503 naming what is wrong without one; never a secret. */
beforeAll(async () => {
  assertTestServices();
  await resetTestState();
});

afterAll(async () => {
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

async function health(): Promise<{ status: number; body: HealthReport; text: string }> {
  const response = await GET(new Request("http://localhost/api/health"));
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as HealthReport, text };
}

describe("GET /api/health", () => {
  it("is degraded (503) while no worker runs, healthy (200) with one, and degraded again once it stops", async () => {
    const before = await health();
    expect(before.status).toBe(503);
    expect(before.body.status).toBe("degraded");
    expect(before.body.database.ok).toBe(true);
    expect(before.body.redis.ok).toBe(true);
    expect(before.body.queue).toMatchObject({ ok: true, waiting: 0, active: 0 });
    expect(before.body.workers).toMatchObject({ ok: false, alive: 0, lastHeartbeatAt: null });
    expect(before.body.problems).toEqual(["No scoring worker has sent a heartbeat to this Redis yet: start one with npm run worker."]);

    const worker = await startWorker({ WORKER_CONCURRENCY: "1" });
    const healthy = await waitFor(
      async () => {
        const answer = await health();
        return answer.status === 200 ? answer : undefined;
      },
      () => "health did not turn 200 with a worker running",
      { timeoutMs: 30_000, workers: [worker] },
    );
    expect(healthy.body.status).toBe("ok");
    expect(healthy.body.problems).toEqual([]);
    expect(healthy.body.workers.alive).toBe(1);
    expect(healthy.body.workers.lastHeartbeatAgeSeconds).toBeLessThanOrEqual(30);
    // No connection string, password or host in the body.
    expect(healthy.text).not.toMatch(/postgres(ql)?:\/\/|redis:\/\/|127\.0\.0\.1|password/i);

    await worker.stop();
    const after = await health();
    expect(after.status).toBe(503);
    expect(after.body.workers.ok).toBe(false);
    // A worker that stopped cleanly leaves the live set, but the site still knows one ran, and when.
    expect(after.body.workers.alive).toBe(0);
    expect(after.body.workers.lastHeartbeatAt).not.toBeNull();
    expect(after.body.workers.lastHeartbeatAgeSeconds).toBeLessThanOrEqual(30);
    expect(after.body.problems).toEqual([expect.stringMatching(/^No scoring worker has sent a heartbeat for \d+ s \(limit 30 s\)/)]);
    expect(after.text).not.toMatch(/\bever\b/);
  });
});
