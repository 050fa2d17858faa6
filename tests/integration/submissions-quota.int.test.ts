import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// lib/platform/env.ts caches the environment on first use (lib/platform/db.ts reads it at
// import), so the limits are set before any import of lib code runs.
const previousQuota = vi.hoisted(() => {
  const previous = { perDay: process.env.TEST_QUOTA_PER_DAY, total: process.env.TEST_QUOTA_TOTAL };
  process.env.TEST_QUOTA_PER_DAY = "2";
  process.env.TEST_QUOTA_TOTAL = "3";
  return previous;
});

import { runBaselines } from "@/lib/domain/scoring/run-baselines";
import { db } from "@/lib/platform/db";
import { getEnv } from "@/lib/platform/env";
import { AppError } from "@/lib/core/errors";
import type { Submission } from "@/lib/platform/generated/prisma";
import { getSharedRedis } from "@/lib/platform/redis";
import { createSubmission } from "@/lib/domain/uploads/create-submission";
import { getTestQuota } from "@/lib/domain/quotas/quota";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { importSmallRelease, predictionLines, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { chargesOf, fileExists, stageText, submitLines } from "./support/uploads";
import { createTestUser, type TestUser } from "@/testing/test-users";

/**
 * The test-phase quota (TEST_QUOTA_PER_DAY=2, TEST_QUOTA_TOTAL=3 here): a
 * rolling 24-hour window and a total per participant and release. Dev
 * submissions, files refused at pre-flight and the system account's
 * baselines never count, and concurrent uploads cannot overrun it.
 */
const HOUR_MS = 60 * 60 * 1000;

let release: TestRelease;
let seed = 500;

beforeAll(async () => {
  assertTestServices();
  expect(getEnv().TEST_QUOTA_PER_DAY).toBe(2);
  expect(getEnv().TEST_QUOTA_TOTAL).toBe(3);
  await resetTestState();
  release = await importSmallRelease(7);
});

afterAll(async () => {
  process.env.TEST_QUOTA_PER_DAY = previousQuota.perDay;
  process.env.TEST_QUOTA_TOTAL = previousQuota.total;
  if (previousQuota.perDay === undefined) delete process.env.TEST_QUOTA_PER_DAY;
  if (previousQuota.total === undefined) delete process.env.TEST_QUOTA_TOTAL;
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

function submitTest(user: TestUser): Promise<Submission> {
  seed += 1;
  return submitLines(predictionLines(release, "test", seed % 2 === 0 ? "open" : "closed", 0.4, seed), { userId: user.id });
}

function submitDev(user: TestUser): Promise<Submission> {
  seed += 1;
  return submitLines(predictionLines(release, "dev", "open", 0.4, seed), { userId: user.id });
}

async function quotaError(run: () => Promise<unknown>): Promise<AppError> {
  const error = await run().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${error === undefined ? "success" : String(error)}`);
  return error;
}

/** As if the upload had been made earlier: the submission and its quota ledger rows (the quota's source of truth). */
async function moveCreatedAtBack(submissionId: string, hours: number): Promise<void> {
  const row = await db.submission.findUniqueOrThrow({ where: { id: submissionId } });
  const createdAt = new Date(row.createdAt.getTime() - hours * HOUR_MS);
  await db.submission.update({ where: { id: submissionId }, data: { createdAt } });
  await db.quotaLedgerEntry.updateMany({ where: { submissionId }, data: { windowAt: createdAt } });
}

describe("test-split quota", () => {
  it("2 per rolling day, then 429-style quota errors with retry-after; 25 hours later one more; then the total", async () => {
    const user = await createTestUser({ label: "quota-edges", withoutPassword: true });
    const first = await submitTest(user);
    await submitTest(user);
    expect(await getTestQuota(user.id, release.releaseId)).toMatchObject({ perDay: 2, total: 3, usedToday: 2, usedTotal: 2, remaining: 0 });

    const daily = await quotaError(() => submitTest(user));
    expect(daily.code).toBe("quota");
    expect(daily.message).toMatch(/2 test submissions of the last 24 hours/);
    expect(daily.retryAfterSeconds).toBeGreaterThan(23 * 3600);
    expect(daily.retryAfterSeconds).toBeLessThanOrEqual(24 * 3600);
    expect(await db.submission.count({ where: { userId: user.id } })).toBe(2);

    await moveCreatedAtBack(first.id, 25);
    expect(await getTestQuota(user.id, release.releaseId)).toMatchObject({ usedToday: 1, usedTotal: 2, remaining: 1 });
    const third = await submitTest(user);
    expect(await chargesOf(third.id)).toBe(1);

    const total = await quotaError(() => submitTest(user));
    expect(total.code).toBe("quota");
    expect(total.message).toMatch(/all 3 test submissions/);
    // Even once the day has passed, the total still refuses.
    await db.submission.updateMany({ where: { userId: user.id }, data: { createdAt: new Date(Date.now() - 48 * HOUR_MS) } });
    await db.quotaLedgerEntry.updateMany({ where: { userId: user.id }, data: { windowAt: new Date(Date.now() - 48 * HOUR_MS) } });
    const stillTotal = await quotaError(() => submitTest(user));
    expect(stillTotal.message).toMatch(/all 3 test submissions/);
    expect(await db.submission.count({ where: { userId: user.id, split: "test" } })).toBe(3);

    // Dev submissions stay unlimited.
    for (let index = 0; index < 4; index += 1) expect(await chargesOf((await submitDev(user)).id)).toBe(0);
    expect(await db.submission.count({ where: { userId: user.id, split: "dev" } })).toBe(4);
    expect((await getTestQuota(user.id, release.releaseId)).usedTotal).toBe(3);
  });

  it("a test file refused at pre-flight uses no quota", async () => {
    const user = await createTestUser({ label: "quota-preflight", withoutPassword: true });
    await submitTest(user);
    const before = await getTestQuota(user.id, release.releaseId);
    const lines = predictionLines(release, "test", "open", 0.4, 777);
    const invalid = await quotaError(() => submitLines([...lines, lines[0] ?? ""], { userId: user.id }));
    expect(invalid.code).toBe("validation");
    expect(await getTestQuota(user.id, release.releaseId)).toEqual(before);
    // The one left is still there.
    await submitTest(user);
    expect((await quotaError(() => submitTest(user))).code).toBe("quota");
  });

  it("the system account's baselines never count", async () => {
    const results = await runBaselines(release.releaseId);
    const testBaselines = results.filter((result) => result.split === "test");
    expect(testBaselines.length).toBeGreaterThan(getEnv().TEST_QUOTA_TOTAL);
    const rows = await db.submission.findMany({ where: { id: { in: results.map((result) => result.submissionId) } } });
    expect(rows.every((row) => row.isBaseline)).toBe(true);
    expect(await db.quotaLedgerEntry.count({ where: { submissionId: { in: rows.map((row) => row.id) } } })).toBe(0);
    const systemUserId = rows[0]?.userId ?? "";
    expect(await getTestQuota(systemUserId, release.releaseId)).toMatchObject({ usedTotal: 0, usedToday: 0, remaining: 2 });
  });

  it("three concurrent uploads with one left: exactly one is accepted (advisory lock)", async () => {
    const user = await createTestUser({ label: "quota-race", withoutPassword: true });
    await submitTest(user);
    expect((await getTestQuota(user.id, release.releaseId)).remaining).toBe(1);

    // Three files of one size and track: their pre-flights take the same time, so the quota checks race.
    // (Different predictions: a byte-identical copy would be refused at upload, §12.)
    const texts = [888, 889, 890].map((fileSeed) => toJsonl(predictionLines(release, "test", "closed", 0.4, fileSeed)));
    const staged = await Promise.all(texts.map((text) => stageText(text)));
    const settled = await Promise.allSettled(staged.map((file) => createSubmission({ userId: user.id, staged: file, originalName: "race.jsonl" })));
    const accepted = settled.filter((result) => result.status === "fulfilled");
    const refused = settled.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
    expect(accepted).toHaveLength(1);
    expect(refused).toHaveLength(2);
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(AppError);
      expect(reason instanceof AppError ? reason.code : "").toBe("quota");
    }
    expect(await db.submission.count({ where: { userId: user.id, split: "test" } })).toBe(2);
    expect(await getTestQuota(user.id, release.releaseId)).toMatchObject({ usedToday: 2, usedTotal: 2, remaining: 0 });
    // The refused uploads' temporary files are gone.
    for (const file of staged) expect(await fileExists(file.tempPath)).toBe(false);
  });
});
