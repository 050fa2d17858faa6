import type { EntityType } from "@/lib/core/dataset/release-schema";
import { TYPE_SLUGS, type LeaderboardTrack } from "./views";

/** The address of a leaderboard view (a track, all types or one entity type). */
export function leaderboardViewHref(track: LeaderboardTrack, type: EntityType | null): string {
  return type === null ? `/leaderboard?track=${track}` : `/leaderboard/types/${TYPE_SLUGS[type]}?track=${track}`;
}

/** The address of a view's pairwise significance matrix (/leaderboard/matrix). */
/** `keep`: "&key=value" pairs of the view's cohort filters, so the matrix is of the same entries. */
export function matrixHref(track: LeaderboardTrack, type: EntityType | null, keep = ""): string {
  return `${type === null ? `/leaderboard/matrix?track=${track}` : `/leaderboard/matrix?track=${track}&type=${TYPE_SLUGS[type]}`}${keep}`;
}

/** The address of a view's progress timeline (/leaderboard/progress). */
export function progressHref(track: LeaderboardTrack, type: EntityType | null): string {
  return type === null ? `/leaderboard/progress?track=${track}` : `/leaderboard/progress?track=${track}&type=${TYPE_SLUGS[type]}`;
}
