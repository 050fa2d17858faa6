import "server-only";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma";

const DAY_MS = 24 * 60 * 60 * 1000;

export type TestQuota = {
  perDay: number;
  total: number;
  usedToday: number;
  usedTotal: number;
  remaining: number;
  /** When the oldest submission of the last 24 hours leaves the window (null when none). */
  nextFreeAt: Date | null;
};

/**
 * The test-phase quota of a participant on a release: a rolling 24-hour window
 * and a total. Every test submission that passed pre-flight counts, whatever
 * happened to it afterwards.
 */
export async function getTestQuota(userId: string, releaseId: string, now: Date = new Date(), client: Prisma.TransactionClient = db): Promise<TestQuota> {
  const env = getEnv();
  const where = { userId, releaseId, split: "test" as const, countsToQuota: true };
  const since = new Date(now.getTime() - DAY_MS);
  const [usedTotal, recent] = await Promise.all([
    client.submission.count({ where }),
    client.submission.findMany({ where: { ...where, createdAt: { gt: since } }, select: { createdAt: true }, orderBy: { createdAt: "asc" } }),
  ]);
  const usedToday = recent.length;
  const remaining = Math.max(0, Math.min(env.TEST_QUOTA_PER_DAY - usedToday, env.TEST_QUOTA_TOTAL - usedTotal));
  const oldest = recent[0]?.createdAt;
  return {
    perDay: env.TEST_QUOTA_PER_DAY,
    total: env.TEST_QUOTA_TOTAL,
    usedToday,
    usedTotal,
    remaining,
    nextFreeAt: oldest ? new Date(oldest.getTime() + DAY_MS) : null,
  };
}

export function assertQuotaLeft(quota: TestQuota, now: Date = new Date()): void {
  if (quota.remaining > 0) return;
  if (quota.usedTotal >= quota.total) {
    throw new AppError("quota", `You have used all ${quota.total} test submissions for this release. Dev submissions cost no quota.`);
  }
  const waitSeconds = quota.nextFreeAt ? Math.max(1, Math.ceil((quota.nextFreeAt.getTime() - now.getTime()) / 1000)) : 3600;
  throw new AppError(
    "quota",
    `You have used your ${quota.perDay} test submissions of the last 24 hours. The next one is available at ${quota.nextFreeAt?.toISOString() ?? "a later time"}. Dev submissions cost no quota.`,
    { retryAfterSeconds: waitSeconds },
  );
}
