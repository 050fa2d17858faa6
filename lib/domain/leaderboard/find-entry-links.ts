import "server-only";
import { db } from "@/lib/platform/db";
import { readStoredFactSheet } from "@/lib/core/fact-sheet/schema";
import { safeExternalUrl } from "@/lib/core/leaderboard/public-entry";
import { PUBLIC_ENTRY_WHERE } from "@/lib/domain/scoring/public-entry-rule";

/** A row's links from its fact sheet: only http(s) addresses (safeExternalUrl), null where the sheet gives none. */
export type EntryLinks = { paper: string | null; code: string | null };

/**
 * The paper and code links of the public entries among `entryIds`, for the leaderboard's rows (the fact sheet
 * is the entry's own; baselines and entries without links are left out of the answer).
 */
export async function findEntryLinks(entryIds: readonly string[]): Promise<Record<string, EntryLinks>> {
  if (entryIds.length === 0) return {};
  const rows = await db.submission.findMany({
    where: { AND: [PUBLIC_ENTRY_WHERE, { id: { in: [...entryIds] } }] },
    select: { id: true, factSheet: true },
  });
  const links: Record<string, EntryLinks> = {};
  for (const row of rows) {
    const sheet = readStoredFactSheet(row.factSheet);
    const paper = safeExternalUrl(sheet?.paperUrl);
    const code = safeExternalUrl(sheet?.codeUrl);
    if (paper !== null || code !== null) links[row.id] = { paper, code };
  }
  return links;
}
