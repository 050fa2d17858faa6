import "server-only";
import { Prisma } from "@/lib/platform/generated/prisma";
import type { FamilyComparisonRow } from "@/lib/core/scoring/comparison-families";

/**
 * The one writer of Comparison rows (protocol section 9), for the worker, the
 * seeder and the fixtures. Floats go in as text for the reason given in
 * store-score.ts: these numbers must match the CLI's to the last digit.
 */

export type EntryComparisons = { entryId: string; rows: readonly FamilyComparisonRow[] };

/** Rows per INSERT: 11 parameters a row, well under PostgreSQL's 65,535. */
const ROWS_PER_STATEMENT = 2_000;

function comparisonValues(entryId: string, row: FamilyComparisonRow): Prisma.Sql {
  return Prisma.sql`(${entryId}, ${row.baseline}, ${row.family}, ${row.identical_to}, ${row.metric}, ${row.b}, ${row.c},
    ${String(row.chi2)}::float8, ${String(row.p)}::float8, ${String(row.p_exact)}::float8, ${String(row.p_holm)}::float8)`;
}

/** Replaces every comparison of each given entry with `rows` (an entry with no rows keeps none). */
export async function replaceComparisons(client: Prisma.TransactionClient, entries: readonly EntryComparisons[]): Promise<void> {
  if (entries.length === 0) return;
  await client.comparison.deleteMany({ where: { entryId: { in: entries.map((entry) => entry.entryId) } } });
  const values = entries.flatMap((entry) => entry.rows.map((row) => comparisonValues(entry.entryId, row)));
  for (let start = 0; start < values.length; start += ROWS_PER_STATEMENT) {
    await client.$executeRaw`
      INSERT INTO "Comparison" ("entryId", "baselineId", "family", "identicalTo", "metric", "b", "c", "chi2", "p", "pExact", "pHolm")
      VALUES ${Prisma.join(values.slice(start, start + ROWS_PER_STATEMENT))}`;
  }
}
