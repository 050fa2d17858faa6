import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/submissions/route";
import { db } from "@/lib/platform/db";
import { isAppError } from "@/lib/core/errors";
import type { Submission } from "@/lib/platform/generated/prisma";
import { getTestQuota } from "@/lib/domain/quotas/quota";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import { assertTestServices } from "@/testing/local-database";
import { killAllChildren, spawnChild } from "./support/processes";
import { DedicatedRedis } from "./support/redis-server";
import { freePort } from "@/testing/free-port";
import { importSmallRelease, predictionLines, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { waitFor, waitForAllSettled } from "./support/wait";
import { startWorker } from "./support/workers";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * Redis is restarted while jobs wait, and is down when files are uploaded.
 * This file runs its own redis-server (append-only, its own port and
 * directory: the shared test Redis is never stopped). This process's producer
 * side is bound to it by handing getScoringQueue() a connection made like the
 * real producer's (no offline queue) before anything else queues; the worker
 * and a second, freshly started producer run as child processes with its URL.
 *
 * An upload while Redis is down is refused with 503 and Retry-After, keeps no
 * row and charges no quota; sent again once Redis is back it is scored once.
 */
let release: TestRelease;
let participant: TestUser;
let token = "";
let redis: DedicatedRedis;
let producerConnection: Redis;
const createdSchema = z.object({ id: z.string(), status: z.string() });
const refusedSchema = z.object({ error: z.string(), retryAfterSeconds: z.number() });
const errorBodySchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  participant = await createTestUser({ label: "redis-restart", withoutPassword: true });
  ({ token } = await createApiToken({ actor: sessionActor(participant), name: "redis outage" }));
  // A port the system just found free, so files running side by side (and other checkouts) do not race for one.
  redis = await DedicatedRedis.create(await freePort());
  await redis.start();
  producerConnection = new Redis(redis.url, { maxRetriesPerRequest: 3, enableReadyCheck: true, enableOfflineQueue: false });
  // Connection errors while the server is down are expected; keep them out of the test output.
  producerConnection.on("error", () => undefined);
  const queue = getScoringQueue(producerConnection);
  queue.on("error", () => undefined);
  expect(getScoringQueue()).toBe(queue);
});

afterAll(async () => {
  await killAllChildren();
  await getScoringQueue().close().catch(() => undefined);
  producerConnection?.disconnect();
  await redis?.destroy();
  await db.$disconnect();
});

const beforeRestart: Submission[] = [];
const testFile = () => toJsonl(predictionLines(release, "test", "open", 0.4, 46));
let retried = "";

function upload(text: string): Promise<Response> {
  const form = new FormData();
  form.set("file", new File([text], "test-predictions.jsonl", { type: "application/x-ndjson" }));
  return POST(new Request("http://127.0.0.1:3100/api/submissions", { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form }));
}

async function submissionCount(): Promise<number> {
  return db.submission.count({ where: { userId: participant.id } });
}

describe("Redis restarts and outages", () => {
  it("jobs queued before a Redis restart are still waiting after it; uploads while Redis is down get 503 with Retry-After and cost nothing", async () => {
    for (const seed of [41, 42, 43]) {
      beforeRestart.push(await submitLines(predictionLines(release, "dev", "open", 0.4, seed), { userId: participant.id }));
    }
    const queue = getScoringQueue();
    expect((await queue.getJobCounts("waiting")).waiting).toBe(3);
    const quotaBefore = await getTestQuota(participant.id, release.releaseId);

    await redis.shutdown();

    // Over HTTP: a test-split upload is refused, with a message and a time to come back.
    const refused = await upload(testFile());
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("30");
    const body = errorBodySchema.parse(await refused.json());
    expect(body.error.code).toBe("unavailable");
    expect(body.error.message).toMatch(/not kept and cost no quota/);
    expect(await submissionCount()).toBe(3);
    expect((await getTestQuota(participant.id, release.releaseId)).remaining).toBe(quotaBefore.remaining);

    // In process: the same refusal as an AppError.
    const direct = await submitLines(predictionLines(release, "dev", "open", 0.4, 44), { userId: participant.id }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isAppError(direct) ? [direct.code, direct.retryAfterSeconds] : direct).toEqual(["unavailable", 30]);

    // A fresh producer process (a web server just started, say) whose very first
    // enqueue meets the down Redis is refused the same way instead of hanging.
    const dir = await mkdtemp(path.join(os.tmpdir(), "irc-int-upload-"));
    const file = path.join(dir, "fresh.jsonl");
    await writeFile(file, toJsonl(predictionLines(release, "dev", "closed", 0.4, 45)), "utf8");
    const freshProducer = spawnChild("producer", "npx", ["tsx", "--conditions=react-server", "tests/integration/support/submit-file.ts", participant.id, file], {
      ...process.env,
      REDIS_URL: redis.url,
    });
    const result = await freshProducer.waitForLine(/^RESULT /, 60_000);
    expect(await freshProducer.waitForExit(30_000)).toEqual({ code: 0, signal: null });
    await rm(dir, { recursive: true, force: true });
    expect(refusedSchema.parse(JSON.parse(result.replace(/^RESULT /, "")))).toEqual({ error: "unavailable", retryAfterSeconds: 30 });
    expect(await submissionCount()).toBe(3);

    await redis.start();
    // Without an offline queue, commands fail until the producer has reconnected (ioredis retries within 2 s).
    await waitFor(
      async () => (producerConnection.status === "ready" ? true : undefined),
      () => `the producer did not reconnect (status ${producerConnection.status})`,
      { timeoutMs: 30_000 },
    );
    expect((await queue.getJobCounts("waiting")).waiting).toBe(3);
    const jobIds = (await queue.getJobs(["waiting"])).map((job) => job.id).sort();
    expect(jobIds).toEqual(beforeRestart.map((submission) => submission.id).sort());

    // Sent again once Redis is back, the refused file is accepted like any other.
    const accepted = await upload(testFile());
    expect(accepted.status).toBe(201);
    retried = createdSchema.parse(await accepted.json()).id;
    expect((await getTestQuota(participant.id, release.releaseId)).remaining).toBe(quotaBefore.remaining - 1);
  });

  it("a worker started after the restart scores every accepted submission once, and nothing else", async () => {
    expect(retried).not.toBe("");
    const worker = await startWorker({ REDIS_URL: redis.url, WORKER_RECONCILE_MS: "1000", WORKER_CONCURRENCY: "2" });
    const ids = [...beforeRestart.map((submission) => submission.id), retried];
    await waitForAllSettled(ids, { timeoutMs: 90_000, workers: [worker] });

    const rows = await db.submission.findMany({ where: { userId: participant.id } });
    expect(rows.map((row) => row.id).sort()).toEqual([...ids].sort());
    for (const row of rows) {
      expect(row.status).toBe("SCORED");
      expect(row.attempts).toBe(1);
    }
    expect(await db.score.count({ where: { submissionId: { in: ids } } })).toBe(ids.length);
    // Nothing was lost, so the reconciler had nothing to re-queue.
    expect(worker.logs(400)).not.toMatch(/re-queued \d+ submission/);
    const counts = await getScoringQueue().getJobCounts("completed", "failed", "waiting", "active");
    expect(counts).toEqual({ completed: ids.length, failed: 0, waiting: 0, active: 0 });
  });
});
