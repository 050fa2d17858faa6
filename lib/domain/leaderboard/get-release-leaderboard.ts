import "server-only";
import { db } from "@/lib/platform/db";
import { releaseGoldOf } from "@/lib/core/scoring/score-staleness";
import { PLATFORM_SCORING_VERSION } from "@/lib/core/scoring/score-report";
import { buildLeaderboard } from "@/lib/core/leaderboard/build-leaderboard";
import type { LeaderboardView } from "@/lib/core/leaderboard/leaderboard-types";
import { findReleaseStamp, loadLeaderboardData, type LeaderboardData } from "./load-leaderboard-data";
import { selectCohort, type CohortFilters } from "@/lib/core/leaderboard/cohort-filters";
import { selectPrimaryEntries, type EntryScope } from "@/lib/core/leaderboard/primary-entries";
import type { LeaderboardTrack } from "@/lib/core/leaderboard/views";

/**
 * The leaderboard of a release that is not the active one (a superseded or an
 * earlier release, /leaderboard?release=VERSION): the same rules, loader and
 * disclosure as the active board. Such boards skip the shared page cache (its
 * key is the active release's stamp), so each process keeps the loaded data
 * and built views of the last few releases read, under that release's own
 * stamp: a read costs one stamp query, and a hide, publish or re-score on
 * that release is seen at the next read. Null when no release has the id.
 */
export async function getReleaseLeaderboard(options: {
  releaseId: string;
  track: LeaderboardTrack;
  scope: EntryScope;
  cohort?: CohortFilters;
}): Promise<LeaderboardView | null> {
  const [release, stamp] = await Promise.all([
    db.datasetRelease.findUnique({ where: { id: options.releaseId }, select: { id: true, name: true, version: true, goldSha256: true } }),
    findReleaseStamp(options.releaseId),
  ]);
  if (release === null || stamp === null) return null;
  const board = keptBoard(release.id, `${stamp.stamp}/${stamp.goldSha256 ?? ""}/${PLATFORM_SCORING_VERSION}`);
  const viewKey = JSON.stringify([options.track, options.scope, options.cohort ?? {}]);
  const kept = board.views.get(viewKey);
  if (kept !== undefined) return kept;
  const view = buildReleaseView(release, await board.data, options);
  board.views.set(viewKey, view);
  return view;
}

type KeptBoard = { stamp: string; data: Promise<LeaderboardData>; views: Map<string, LeaderboardView> };

/** Earlier releases' boards kept per process, most recently read last. */
const keptBoards = new Map<string, KeptBoard>();
const KEPT_RELEASES = 4;
const KEPT_VIEWS_PER_RELEASE = 64;

function keptBoard(releaseId: string, stamp: string): KeptBoard {
  let board = keptBoards.get(releaseId);
  if (board === undefined || board.stamp !== stamp) {
    const data = loadLeaderboardData(releaseId);
    const fresh: KeptBoard = { stamp, data, views: new Map() };
    // A failed load must not stick: the next read tries again.
    data.catch(() => {
      if (keptBoards.get(releaseId) === fresh) keptBoards.delete(releaseId);
    });
    board = fresh;
  }
  keptBoards.delete(releaseId);
  keptBoards.set(releaseId, board);
  if (board.views.size >= KEPT_VIEWS_PER_RELEASE) board.views.clear();
  for (const oldest of keptBoards.keys()) {
    if (keptBoards.size <= KEPT_RELEASES) break;
    keptBoards.delete(oldest);
  }
  return board;
}

type ReleaseRow = { id: string; name: string; version: string; goldSha256: unknown };

function buildReleaseView(
  release: ReleaseRow,
  data: LeaderboardData,
  options: { track: LeaderboardTrack; scope: EntryScope; cohort?: CohortFilters },
): LeaderboardView {
  const scoped = options.scope === "primary" ? selectPrimaryEntries(data.entries) : data.entries;
  const chosen = selectCohort({ entries: scoped, reported: data.reported, releaseDate: data.releaseDate }, options.cohort ?? {});
  return buildLeaderboard({
    release: { id: release.id, name: release.name, version: release.version },
    goldSha256: releaseGoldOf(release.goldSha256, "test"),
    scorerVersion: PLATFORM_SCORING_VERSION,
    track: options.track,
    type: null,
    ...data,
    entries: chosen.entries,
    reported: chosen.reported,
  });
}
