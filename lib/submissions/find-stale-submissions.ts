import "server-only";
import { db } from "@/lib/db";
import { SCORER_VERSION } from "@/lib/scoring/score-report";

/** Scored submissions whose scorer version or gold checksum is not the current one (protocol section 10). */
export async function findStaleSubmissions(options: { includeCurrent?: boolean } = {}): Promise<string[]> {
  const rows = await db.submission.findMany({
    where: { score: { isNot: null } },
    select: { id: true, split: true, release: { select: { goldSha256: true } }, score: { select: { scorerVersion: true, goldSha256: true } } },
  });
  return rows
    .filter((row) => {
      if (options.includeCurrent) return true;
      const gold = (row.release.goldSha256 as Record<string, string>)[row.split];
      return row.score?.scorerVersion !== SCORER_VERSION || row.score?.goldSha256 !== gold;
    })
    .map((row) => row.id);
}
