import "server-only";
import { getLeaderboard } from "./get-leaderboard";
import { getReleaseLeaderboard } from "./get-release-leaderboard";
import type { LeaderboardView } from "@/lib/core/leaderboard/leaderboard-types";
import { TRACK_LABELS, type LeaderboardTrack } from "@/lib/core/leaderboard/views";

/**
 * The public view of a track on a release in which a page reads a pair's
 * verdict (protocol §13): the primary-entries view first, then every entry,
 * whichever first satisfies `isWanted`; with the name the page prints beside
 * the verdict, so the entry page, /compare and the leaderboard say which view
 * they read. Null when neither does.
 */
export async function findRankingView(
  track: LeaderboardTrack,
  releaseId: string,
  isWanted: (view: LeaderboardView) => boolean,
): Promise<{ view: LeaderboardView; name: string } | null> {
  for (const scope of ["primary", "all"] as const) {
    const snapshot = await getLeaderboard({ track, scope });
    const view = snapshot !== null && snapshot.view.release.id === releaseId ? snapshot.view : await getReleaseLeaderboard({ releaseId, track, scope });
    if (view !== null && isWanted(view)) return { view, name: `${TRACK_LABELS[track]}, all types${scope === "all" ? ", every entry" : ""}` };
  }
  return null;
}
