import type { Prisma } from "@/lib/platform/generated/prisma";
import type { FactSheet } from "@/lib/core/fact-sheet/schema";

/**
 * The Submission columns a fact sheet is written to: the sheet itself (with
 * its version) and the system name, which the leaderboard, lists and audit
 * log read without parsing the sheet. Every write of a sheet goes through
 * here, so the two never disagree.
 */
export function factSheetColumns(sheet: FactSheet): { factSheet: Prisma.InputJsonValue; systemName: string } {
  return { factSheet: sheet as unknown as Prisma.InputJsonValue, systemName: sheet.systemName };
}
