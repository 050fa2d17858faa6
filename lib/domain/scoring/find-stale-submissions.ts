import "server-only";
import { db } from "@/lib/platform/db";
import type { FailureKind, SubmissionStatus } from "@/lib/platform/generated/prisma";
import { isScoreStale, releaseGoldOf } from "@/lib/core/scoring/score-staleness";

type StaleSubmission = { id: string; status: SubmissionStatus; failureKind: FailureKind | null };

/** Scored submissions whose scorer version or gold checksum is not the current one (protocol section 10). */
export async function findStaleSubmissions(options: { includeCurrent?: boolean } = {}): Promise<StaleSubmission[]> {
  const rows = await db.submission.findMany({
    where: { score: { isNot: null } },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      split: true,
      status: true,
      failureKind: true,
      release: { select: { goldSha256: true } },
      score: { select: { scorerVersion: true, goldSha256: true } },
    },
  });
  return rows
    .filter((row) => {
      if (options.includeCurrent) return true;
      return row.score !== null && isScoreStale(row.score, releaseGoldOf(row.release.goldSha256, row.split));
    })
    .map((row) => ({ id: row.id, status: row.status, failureKind: row.failureKind }));
}
