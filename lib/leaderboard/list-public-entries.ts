import "server-only";
import { loadSplitGold } from "@/lib/submissions/load-gold";
import { db } from "@/lib/db";
import { discloseHeadline, disclosureLevelFor } from "@/lib/disclosure/disclose";
import type { Prisma } from "@/lib/generated/prisma";
import { findActiveRelease } from "@/lib/releases/get-release";
import { PUBLIC_ENTRY_WHERE } from "@/lib/stored-scores/public-entry-rule";
import { isScoreStale, releaseGoldOf } from "@/lib/stored-scores/score-staleness";
import type { Track } from "@/lib/scoring/tracks";
import type { ReleaseRef } from "./leaderboard-types";
import type { EntriesQuery } from "./query-schemas";
import { formatDate } from "@/lib/format/dates";

/** A public, scored entry in a list: headline numbers only. */
export type PublicEntrySummary = {
  id: string;
  system: string;
  team: string;
  track: Track;
  split: "dev" | "test";
  isBaseline: boolean;
  n: number;
  /** The track's primary metric (alias / hit@1). */
  primary: number;
  /** Alias-aware top-1 accuracy, comparable across tracks. */
  unified: number;
  isStale: boolean;
  date: string;
};

export type PublicEntryList = { release: ReleaseRef; entries: PublicEntrySummary[] };

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
