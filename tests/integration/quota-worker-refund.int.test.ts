import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import { getTestQuota } from "@/lib/domain/quotas/quota";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { createTestUser } from "@/testing/test-users";
import { killAllChildren } from "./support/processes";
import { importSmallRelease, predictionLines, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { waitForStatus } from "./support/wait";
import { startWorker } from "./support/workers";

/**
 * The worker's own refund path, end to end: a real scoring worker whose file
 * store cannot give it the stored file (a disk store over an empty directory,
 * while the upload went to the PostgreSQL store) fails every attempt of the
 * job, and after the last one the submission is FAILED / INTERNAL, its test
 * charge refunded on the ledger with the reason, and its message says so.
 */
let release: TestRelease;
let emptyStore: string;

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(45);
  emptyStore = await mkdtemp(path.join(os.tmpdir(), "irc-int-empty-store-"));
});

afterAll(async () => {
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
  if (emptyStore) await rm(emptyStore, { recursive: true, force: true });
});

describe("a test file the worker cannot read", () => {
  it("is retried until its attempts run out, then FAILED / INTERNAL with its charge refunded and the reason on the ledger", async () => {
    const owner = await createTestUser({ label: "worker-refund", withoutPassword: true });
    const submission = await submitLines(predictionLines(release, "test", "open", 0.4, 4501), { userId: owner.id });
    expect((await getTestQuota(owner.id, release.releaseId)).usedTotal).toBe(1);

    const worker = await startWorker({ IRC_FILE_STORE: "disk", IRC_DATA_DIR: emptyStore, WORKER_CONCURRENCY: "1" });
    // Five attempts with exponential backoff (2, 4, 8, 16 s: lib/platform/queue/scoring-job.ts).
    const failed = await waitForStatus(submission.id, "FAILED", { timeoutMs: 120_000, workers: [worker] });
    await worker.stop();

    expect(failed.failureKind).toBe("INTERNAL");
    expect(failed.attempts).toBe(5);
    expect(failed.failureReason).toBe(
      "An internal error stopped scoring after 5 attempts. This is our fault, not your file's; maintainers can see it and re-score it. " +
        "Its test quota charge was refunded (see the quota ledger on your account page).",
    );
    const rows = await db.quotaLedgerEntry.findMany({ where: { submissionId: submission.id }, orderBy: { kind: "asc" } });
    expect(rows.map((row) => [row.kind, row.amount, row.actorId])).toEqual([
      ["CHARGE", 1, null],
      ["REFUND", -1, null],
    ]);
    expect(rows[1]?.reason).toBe("Scoring failed on the platform's side: An internal error stopped scoring after 5 attempts. This is our fault, not your file's; maintainers can see it and re-score it.");
    expect(await getTestQuota(owner.id, release.releaseId)).toMatchObject({ usedToday: 0, usedTotal: 0 });
    expect(await db.score.count({ where: { submissionId: submission.id } })).toBe(0);
  }, 180_000);
});
