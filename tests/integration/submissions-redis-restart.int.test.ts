import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Submission } from "@/lib/generated/prisma";
import { getScoringQueue } from "@/lib/submissions/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { killAllChildren, spawnChild } from "./support/processes";
import { DedicatedRedis } from "./support/redis-server";
import { importSmallRelease, predictionLines, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { createTestUser, type TestUser } from "./support/users";
import { waitFor, waitForAllSettled } from "./support/wait";
import { startWorker } from "./support/workers";

/**
 * Redis is restarted while jobs wait, and is down when files are uploaded.
 * This file runs its own redis-server (append-only, own port and directory).
 * This process's producer side is bound to it by handing a connection to
 * getScoringQueue() before anything else queues; the worker and a second,
 * freshly started producer run as child processes with its REDIS_URL.
 */
let release: TestRelease;
let participant: TestUser;
let redis: DedicatedRedis;
let producerConnection: Redis;
const queueErrors: string[] = [];
const createdSchema = z.object({ id: z.string(), status: z.string() });

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  participant = await createTestUser("redis-restart");
  redis = await DedicatedRedis.create(63811);
  await redis.start();
  // Like lib/redis.ts createRedisConnection() for producers, pointed at the dedicated server.
  producerConnection = new Redis(redis.url, { maxRetriesPerRequest: 3, enableReadyCheck: true });
  // Connection errors while the server is down are expected; keep them out of the test output.
  producerConnection.on("error", () => undefined);
  const queue = getScoringQueue(producerConnection);
  queue.on("error", (error) => queueErrors.push(error.message));
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
let whileDown: Submission | undefined;
let fromFreshProcess = "";

async function submitDev(seed: number): Promise<Submission> {
  return submitLines(predictionLines(release, "dev", "open", 0.4, seed), { userId: participant.id });
}

describe("Redis restarts and outages", () => {
  it("jobs queued before a Redis restart are still waiting after it; uploads while Redis is down are kept QUEUED", async () => {
    for (const seed of [41, 42, 43]) beforeRestart.push(await submitDev(seed));
    const queue = getScoringQueue();
    expect((await queue.getJobCounts("waiting")).waiting).toBe(3);

    await redis.shutdown();

    // The upload itself succeeds: the submission is stored, only queuing fails.
    whileDown = await submitDev(44);
    expect(whileDown.status).toBe("QUEUED");
    const stored = await db.submission.findUniqueOrThrow({ where: { id: whileDown.id } });
    expect(stored.status).toBe("QUEUED");

    // A fresh producer process (a web server just started, say) whose very first
    // enqueue meets the down Redis must not hang the upload either.
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
    const created = createdSchema.parse(JSON.parse(result.replace(/^RESULT /, "")));
    expect(created.status).toBe("QUEUED");
    fromFreshProcess = created.id;
    expect(freshProducer.lines.join("\n")).toMatch(/could not queue/);

    await redis.start();
    expect((await queue.getJobCounts("waiting")).waiting).toBe(3);
    const jobIds = (await queue.getJobs(["waiting"])).map((job) => job.id).sort();
    expect(jobIds).toEqual(beforeRestart.map((submission) => submission.id).sort());
    expect(await queue.getJob(whileDown.id)).toBeUndefined();
    expect(await queue.getJob(fromFreshProcess)).toBeUndefined();
  });

  it("a worker started after the restart scores the surviving jobs, and its reconciler queues the two Redis never saw", async () => {
    const missed = whileDown;
    if (!missed) throw new Error("the previous test did not create the submission made while Redis was down");
    const worker = await startWorker({ REDIS_URL: redis.url, WORKER_RECONCILE_MS: "1000", WORKER_CONCURRENCY: "2" });
    const ids = [...beforeRestart.map((submission) => submission.id), missed.id, fromFreshProcess];
    // The reconciler leaves a submission alone for its 10 s grace period after queuing.
    await waitForAllSettled(ids, { timeoutMs: 90_000, workers: [worker] });

    const rows = await db.submission.findMany({ where: { id: { in: ids } } });
    for (const row of rows) {
      expect(row.status).toBe("SCORED");
      expect(row.attempts).toBe(1);
    }
    expect(await db.score.count({ where: { submissionId: { in: ids } } })).toBe(ids.length);
    const requeued = [...worker.logs(400).matchAll(/re-queued (\d+) submission\(s\) without a live job/g)].reduce((sum, match) => sum + Number(match[1]), 0);
    expect(requeued).toBe(2);
    // The reconciler queued it under its own id (no job existed), and it ran once.
    const job = await waitFor(
      async () => {
        const found = await getScoringQueue().getJob(missed.id);
        return found && (await found.getState()) === "completed" ? found : undefined;
      },
      () => `the job of ${missed.id} did not complete`,
      { timeoutMs: 30_000, workers: [worker] },
    );
    expect(job.returnvalue).toBe("scored");
    expect(job.attemptsMade).toBe(1);
  });
});
