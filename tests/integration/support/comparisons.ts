import { db } from "@/lib/db";
import type { Split } from "@/lib/generated/prisma";

export type ComparisonRow = { entryId: string; baselineId: string; metric: string; b: number; c: number; p: number; pExact: number; pHolm: number };

/** Every comparison row of the entries of one split, sorted (for snapshots across re-deliveries). */
export async function comparisonRowsOf(releaseId: string, split: Split): Promise<ComparisonRow[]> {
  const rows = await db.comparison.findMany({
    where: { entry: { releaseId, split } },
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

/** Counts of rows per (entry, baseline) pair: a duplicate would show as a count above 1. */
export async function comparisonPairCounts(entryIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await db.$queryRaw<{ entryId: string; baselineId: string; count: bigint }[]>`
    SELECT "entryId", "baselineId", count(*) AS count FROM "Comparison"
    WHERE "entryId" = ANY(${[...entryIds]}::text[]) GROUP BY "entryId", "baselineId"`;
  return new Map(rows.map((row) => [`${row.entryId}|${row.baselineId}`, Number(row.count)]));
}
