import "server-only";
import type { EntityType } from "@/lib/core/dataset/release-schema";
import { getActiveLeaderboardData, getLeaderboard } from "@/lib/domain/leaderboard/get-leaderboard";
import { buildProgressView, type ProgressView } from "@/lib/core/leaderboard/progress-view";
import type { LeaderboardTrack } from "@/lib/core/leaderboard/views";

/** The progress timeline of one view of the active release, from the leaderboard's cached data; null when no release is active. */
export async function getProgress(options: { track: LeaderboardTrack; type: EntityType | null }): Promise<ProgressView | null> {
  const active = await getActiveLeaderboardData();
  if (active === null) return null;
  // Each step reads its pair in the leaderboard's view: the default one when both are in it, else the view of every entry.
  const [primary, all] = await Promise.all([
    getLeaderboard({ track: options.track, type: options.type, scope: "primary" }),
    getLeaderboard({ track: options.track, type: options.type, scope: "all" }),
  ]);
  return buildProgressView({
    readPair: (entryId, otherId) => primary?.view.readPair(entryId, otherId) ?? all?.view.readPair(entryId, otherId) ?? null,
    release: active.release,
    goldSha256: active.goldSha256,
    track: options.track,
    type: options.type,
    entries: active.data.entries,
    reported: active.data.reported,
    goldTypes: active.data.goldTypes,
    minGroupN: active.data.minGroupN,
  });
}
