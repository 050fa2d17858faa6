import "server-only";
import { db } from "@/lib/db";
import type { FailureKind, SubmissionStatus } from "@/lib/generated/prisma";
import { SCORER_VERSION } from "@/lib/scoring/score-report";

export type StaleSubmission = { id: string; status: SubmissionStatus; failureKind: FailureKind | null };

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
      const gold = (row.release.goldSha256 as Record<string, string>)[row.split];
      return row.score?.scorerVersion !== SCORER_VERSION || row.score?.goldSha256 !== gold;
    })
    .map((row) => ({ id: row.id, status: row.status, failureKind: row.failureKind }));
}
