import "server-only";
import { db } from "@/lib/platform/db";
import { getEnv } from "@/lib/platform/env";
import type { Prisma } from "@/lib/platform/generated/prisma";
import { DAY_MS, HOUR_MS } from "@/lib/core/time";


/** A participant's dev uploads of the last 24 hours, oldest first: the rows both dev limits count. */
export function recentDevUploads(userId: string, now: Date, client: Prisma.TransactionClient = db): Promise<{ createdAt: Date; fileBytes: number }[]> {
  return client.submission.findMany({
    where: { userId, split: "dev", createdAt: { gt: new Date(now.getTime() - DAY_MS) } },
    select: { createdAt: true, fileBytes: true },
    orderBy: { createdAt: "asc" },
  });
}

type DevUploadUsage = {
  perHour: number;
  usedLastHour: number;
  /** When the oldest dev upload of the last hour leaves the window (null when none). */
  nextFreeAt: Date | null;
  bytesPerDay: number;
  bytesUsedToday: number;
};

/**
 * What a participant has used of the dev-upload limits, counted over the same
 * rolling windows and rows as assertDevUploadAllowed (dev-upload-limits.ts)
 * enforces them: uploads in the last hour, bytes in the last 24 hours.
 */
export async function getDevUploadUsage(userId: string, now: Date = new Date(), client: Prisma.TransactionClient = db): Promise<DevUploadUsage> {
  const env = getEnv();
  const recent = await recentDevUploads(userId, now, client);
  const lastHour = recent.filter((row) => row.createdAt.getTime() > now.getTime() - HOUR_MS);
  const oldestOfHour = lastHour[0];
  return {
    perHour: env.DEV_UPLOADS_PER_HOUR,
    usedLastHour: lastHour.length,
    nextFreeAt: oldestOfHour ? new Date(oldestOfHour.createdAt.getTime() + HOUR_MS) : null,
    bytesPerDay: env.DEV_UPLOAD_BYTES_PER_DAY,
    bytesUsedToday: recent.reduce((sum, row) => sum + row.fileBytes, 0),
  };
}
