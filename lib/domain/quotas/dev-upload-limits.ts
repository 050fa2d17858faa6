import "server-only";
import { formatDateTime } from "@/lib/core/format/dates";
import { getEnv } from "@/lib/platform/env";
import { AppError } from "@/lib/core/errors";
import { formatBytes } from "@/lib/core/format/bytes";
import type { Prisma } from "@/lib/platform/generated/prisma";

import { recentDevUploads } from "@/lib/domain/quotas/get-dev-upload-usage";
import { DAY_MS, HOUR_MS } from "@/lib/core/time";

function describeWait(freesAt: Date, now: Date): { retryAfterSeconds: number; text: string } {
  const retryAfterSeconds = Math.max(1, Math.ceil((freesAt.getTime() - now.getTime()) / 1000));
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return { retryAfterSeconds, text: `at ${formatDateTime(freesAt)} (in ${minutes} minute${minutes === 1 ? "" : "s"})` };
}

/**
 * Dev submissions cost no quota, but each is stored and scored: a participant
 * may make DEV_UPLOADS_PER_HOUR of them per rolling hour and store
 * DEV_UPLOAD_BYTES_PER_DAY of them per rolling 24 hours. Past either, 429
 * with the moment the next upload is possible (Retry-After). Run inside the
 * transaction that holds the participant's submission lock, so concurrent
 * uploads cannot both take the last slot.
 */
export async function assertDevUploadAllowed(userId: string, bytes: number, client: Prisma.TransactionClient, now: Date = new Date()): Promise<void> {
  const env = getEnv();
  const recent = await recentDevUploads(userId, now, client);
  const lastHour = recent.filter((row) => row.createdAt.getTime() > now.getTime() - HOUR_MS);
  const oldestOfHour = lastHour[0];
  if (oldestOfHour && lastHour.length >= env.DEV_UPLOADS_PER_HOUR) {
    const wait = describeWait(new Date(oldestOfHour.createdAt.getTime() + HOUR_MS), now);
    throw new AppError(
      "rate_limited",
      `You have made ${lastHour.length} dev submissions in the last hour; the limit is ${env.DEV_UPLOADS_PER_HOUR} per hour. The next one is possible ${wait.text}. Nothing was stored.`,
      { retryAfterSeconds: wait.retryAfterSeconds },
    );
  }
  const limit = env.DEV_UPLOAD_BYTES_PER_DAY;
  if (bytes > limit) {
    throw new AppError("rate_limited", `This file (${formatBytes(bytes)}) is larger than the ${formatBytes(limit)} of dev files one participant may store per 24 hours.`);
  }
  const used = recent.reduce((sum, row) => sum + row.fileBytes, 0);
  if (used + bytes <= limit) return;
  // The moment enough of the oldest uploads leave the 24-hour window for this file to fit.
  let remaining = used;
  let freesAt = now;
  for (const row of recent) {
    remaining -= row.fileBytes;
    freesAt = new Date(row.createdAt.getTime() + DAY_MS);
    if (remaining + bytes <= limit) break;
  }
  const wait = describeWait(freesAt, now);
  throw new AppError(
    "rate_limited",
    `Your dev submissions of the last 24 hours take ${formatBytes(used)} of the ${formatBytes(limit)} one participant may store per day, and this file (${formatBytes(bytes)}) does not fit. It fits ${wait.text}. Nothing was stored.`,
    { retryAfterSeconds: wait.retryAfterSeconds },
  );
}
