import "server-only";
import { perturbationOf } from "@/lib/domain/scoring/public-disclosure";
import { loadSplitGold } from "@/lib/domain/scoring/load-gold";
import { db } from "@/lib/platform/db";
import { discloseHeadline, disclosureLevelFor, publicHeadlineCount } from "@/lib/core/disclosure/disclose";
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
        select: { n: true, primary: true, unified: true, feedbackPrimary: true, rankingReport: true, scorerVersion: true, goldSha256: true, computedAt: true },
      },
    },
    orderBy: [{ createdAt: "asc" }],
  });
  // Section 12: a test entry's public numbers are its ranking slice's, whose size is the same for every entry.
  const rankingN = (await loadSplitGold(release.id, "test")).slices?.ranking.length ?? 0;
  const orderOf = new Map<string, number>();
  const entries = rows.flatMap((row): PublicEntrySummary[] => {
    if (row.score === null || row.split === "train") return [];
    const level = disclosureLevelFor({ split: row.split, isPublic: true, isMaintainer: false });
    const perturbation = perturbationOf(release.name, row.score.goldSha256, row.id);
    const primary = discloseHeadline(row.score, "primary", level, row.split, perturbation);
    const unified = discloseHeadline(row.score, "unified", level, row.split, perturbation);
    // A test score from before the slices has no ranking-slice numbers until it is re-scored.
    if (primary === null || unified === null) return [];
    const headline = row.split === "test" ? publicHeadlineCount(row.score, "unified", perturbation) : null;
    orderOf.set(row.id, headline === null ? unified : headline.count / headline.n);
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
  // Section 12: public orders come from the perturbed counts, ties by entry id.
  entries.sort((a, b) => orderOf.get(b.id)! - orderOf.get(a.id)! || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { release: { id: release.id, name: release.name, version: release.version }, entries };
}
