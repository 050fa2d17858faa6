import "server-only";
import { db } from "@/lib/db";
import type { Split as DbSplit, Track as DbTrack } from "@/lib/generated/prisma";
import { compareWithBaselines, type NamedOutcomes } from "@/lib/scoring/compare";
import type { SampleOutcomes } from "@/lib/scoring/outcome-codes";

type ScoredRow = { id: string; track: DbTrack; isBaseline: boolean; outcomes: SampleOutcomes; goldSha256: string };

export function outcomesFromBytes(track: DbTrack, bytes: Uint8Array): SampleOutcomes {
  return { track, codes: new Uint8Array(bytes) };
}

async function loadScored(releaseId: string, split: DbSplit, where: { isBaseline?: boolean; id?: string }): Promise<ScoredRow[]> {
  const rows = await db.submission.findMany({
    where: { releaseId, split, status: "SCORED", ...where },
    select: { id: true, track: true, isBaseline: true, score: { select: { outcomes: true, goldSha256: true } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.flatMap((row) =>
    row.score
      ? [{ id: row.id, track: row.track, isBaseline: row.isBaseline, goldSha256: row.score.goldSha256, outcomes: outcomesFromBytes(row.track, row.score.outcomes) }]
      : [],
  );
}

/** Compares one entry with every baseline of its split (McNemar, exact p, Holm across the baselines) and stores the rows. */
async function compareEntry(entry: ScoredRow, baselines: ScoredRow[]): Promise<void> {
  const family: NamedOutcomes[] = baselines
    .filter((baseline) => baseline.id !== entry.id && baseline.goldSha256 === entry.goldSha256)
    .map((baseline) => ({ name: baseline.id, outcomes: baseline.outcomes }));
  const comparisons = compareWithBaselines(entry.outcomes, family);
  await db.$transaction([
    db.comparison.deleteMany({ where: { entryId: entry.id } }),
    db.comparison.createMany({
      data: comparisons.map((row) => ({
        entryId: entry.id,
        baselineId: row.baseline,
        metric: row.metric,
        b: row.b,
        c: row.c,
        chi2: row.chi2,
        p: row.p,
        pExact: row.p_exact,
        pHolm: row.p_holm,
      })),
    }),
  ]);
}

/**
 * Brings the comparisons of a split up to date after `submissionId` was scored:
 * an ordinary entry is compared with the baselines; a new or changed baseline
 * changes every entry's family (and its Holm adjustment), so all are redone.
 */
export async function refreshComparisons(releaseId: string, split: DbSplit, submissionId: string): Promise<void> {
  const baselines = await loadScored(releaseId, split, { isBaseline: true });
  const isBaseline = baselines.some((baseline) => baseline.id === submissionId);
  const entries = isBaseline ? await loadScored(releaseId, split, {}) : await loadScored(releaseId, split, { id: submissionId });
  for (const entry of entries) await compareEntry(entry, baselines);
}

/** Recomputes every comparison of a split (after a baseline is marked or unmarked). */
export async function refreshSplitComparisons(releaseId: string, split: DbSplit): Promise<void> {
  const baselines = await loadScored(releaseId, split, { isBaseline: true });
  const entries = await loadScored(releaseId, split, {});
  for (const entry of entries) await compareEntry(entry, baselines);
}
