import { db } from "@/lib/platform/db";
import type { Split } from "@/lib/platform/generated/prisma";

export type ComparisonRow = { entryId: string; baselineId: string; metric: string; b: number; c: number; p: number; pExact: number; pHolm: number };

/**
 * The comparison rows of one Holm family (default "unified": one row per
 * baseline of the split) of the entries of one split, sorted (for snapshots
 * across re-deliveries).
 */
export async function comparisonRowsOf(releaseId: string, split: Split, family: "track" | "unified" = "unified"): Promise<ComparisonRow[]> {
  const rows = await db.comparison.findMany({
    where: { entry: { releaseId, split }, family },
    select: { entryId: true, baselineId: true, metric: true, b: true, c: true, p: true, pExact: true, pHolm: true },
    orderBy: [{ entryId: "asc" }, { baselineId: "asc" }],
  });
  return rows;
}

/** Ids of the SCORED baselines of a split. */
export async function scoredBaselineIds(releaseId: string, split: Split): Promise<string[]> {
  const rows = await db.submission.findMany({ where: { releaseId, split, isBaseline: true, status: "SCORED" }, select: { id: true }, orderBy: { id: "asc" } });
  return rows.map((row) => row.id);
}

/**
 * Rows per (entry, baseline) pair within one Holm family, the largest over
 * the families: a duplicate would show as a count above 1 (a same-track
 * baseline has one row in each of the two families, section 9).
 */
export async function comparisonPairCounts(entryIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await db.$queryRaw<{ entryId: string; baselineId: string; count: bigint }[]>`
    SELECT "entryId", "baselineId", max(n) AS count FROM (
      SELECT "entryId", "baselineId", "family", count(*) AS n FROM "Comparison"
      WHERE "entryId" = ANY(${[...entryIds]}::text[]) GROUP BY "entryId", "baselineId", "family") AS per_family
    GROUP BY "entryId", "baselineId"`;
  return new Map(rows.map((row) => [`${row.entryId}|${row.baselineId}`, Number(row.count)]));
}
