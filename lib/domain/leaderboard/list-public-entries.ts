import "server-only";
import { loadSplitGold } from "@/lib/domain/scoring/load-gold";
import { db } from "@/lib/platform/db";
import { discloseHeadline, disclosureLevelFor } from "@/lib/core/disclosure/disclose";
import type { Prisma } from "@/lib/platform/generated/prisma";
import { findActiveRelease } from "@/lib/domain/releases/get-release";
import { PUBLIC_ENTRY_WHERE } from "@/lib/domain/scoring/public-entry-rule";
import { isScoreStale, releaseGoldOf } from "@/lib/core/scoring/score-staleness";
import type { PublicEntryList, PublicEntrySummary } from "@/lib/core/leaderboard/leaderboard-types";
import type { EntriesQuery } from "@/lib/core/leaderboard/query-schemas";
import { formatDate } from "@/lib/core/format/dates";


/** The public, scored entries of the active release (published test entries and baselines), best alias-aware top-1 first. */
export async function listPublicEntries(query: EntriesQuery): Promise<PublicEntryList | null> {
  const release = await findActiveRelease();
  if (release === null) {
    return null;
  }
  const kind: Prisma.SubmissionWhereInput = query.kind === "all" ? {} : { isBaseline: query.kind === "baselines" };
  const rows = await db.submission.findMany({
    where: {
      releaseId: release.id,
      score: { isNot: null },
      AND: [PUBLIC_ENTRY_WHERE, kind, { split: query.split ?? { in: ["dev", "test"] } }],
      ...(query.track ? { track: query.track } : {}),
    },
    select: {
      id: true,
      track: true,
      split: true,
      isBaseline: true,
      baselineLabel: true,
      systemName: true,
      publishedAt: true,
      user: { select: { displayName: true } },
      score: {
        select: { n: true, primary: true, unified: true, feedbackPrimary: true, rankingPrimary: true, rankingUnified: true, scorerVersion: true, goldSha256: true, computedAt: true },
      },
    },
    orderBy: [{ createdAt: "asc" }],
  });
  // Section 12: a test entry's public numbers are its ranking slice's, whose size is the same for every entry.
  const rankingN = (await loadSplitGold(release.id, "test")).slices?.ranking.length ?? 0;
  const entries = rows.flatMap((row): PublicEntrySummary[] => {
    if (row.score === null || row.split === "train") return [];
    const level = disclosureLevelFor({ split: row.split, isPublic: true, isMaintainer: false });
    const primary = discloseHeadline(row.score, "primary", level, row.split);
    const unified = discloseHeadline(row.score, "unified", level, row.split);
    // A test score from before the slices has no ranking-slice numbers until it is re-scored.
    if (primary === null || unified === null) return [];
    return [
      {
        id: row.id,
        system: (row.isBaseline ? row.baselineLabel : null) ?? row.systemName ?? row.baselineLabel ?? "Unnamed system",
        team: row.user.displayName,
        track: row.track,
        split: row.split,
        isBaseline: row.isBaseline,
        n: row.split === "test" ? rankingN : row.score.n,
        primary,
        unified,
        isStale: isScoreStale(row.score, releaseGoldOf(release.goldSha256, row.split)),
        date: formatDate(row.publishedAt ?? row.score.computedAt),
      },
    ];
  });
  entries.sort((a, b) => b.unified - a.unified || a.system.localeCompare(b.system, "en"));
  return { release: { id: release.id, name: release.name, version: release.version }, entries };
}
