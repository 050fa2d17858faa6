import "server-only";
import { db } from "@/lib/db";
import { releaseGoldOf } from "@/lib/scores/score-staleness";
import { SCORER_VERSION } from "@/lib/scoring/score-report";
import { buildLeaderboard } from "./build-leaderboard";
import type { LeaderboardView } from "./leaderboard-types";
import { loadLeaderboardData } from "./load-leaderboard-data";
import { selectCohort, type CohortFilters } from "./cohort-filters";
import { selectPrimaryEntries, type EntryScope } from "./primary-entries";
import type { LeaderboardTrack } from "./views";

/**
 * The leaderboard of a release that is not the active one (a superseded or an
 * earlier release, /leaderboard?release=VERSION): the same rules, loader and
 * disclosure as the active board, built on request without the cache (such
 * boards are read rarely and change rarely). Null when no release has the version.
 */
export async function getReleaseLeaderboard(options: {
  releaseId: string;
  track: LeaderboardTrack;
  scope: EntryScope;
  cohort?: CohortFilters;
}): Promise<LeaderboardView | null> {
  const release = await db.datasetRelease.findUnique({ where: { id: options.releaseId }, select: { id: true, name: true, version: true, goldSha256: true } });
  if (release === null) return null;
  const data = await loadLeaderboardData(release.id);
  const scoped = options.scope === "primary" ? selectPrimaryEntries(data.entries) : data.entries;
  const chosen = selectCohort({ entries: scoped, reported: data.reported, releaseDate: data.releaseDate }, options.cohort ?? {});
  return buildLeaderboard({
    release: { id: release.id, name: release.name, version: release.version },
    goldSha256: releaseGoldOf(release.goldSha256, "test"),
    scorerVersion: SCORER_VERSION,
    track: options.track,
    type: null,
    ...data,
    entries: chosen.entries,
    reported: chosen.reported,
  });
}
