import type { EntrySource } from "./leaderboard-types";

/** Which entries a leaderboard view ranks: by default each participant's primary entry of a track; "all" on request. */
export const ENTRY_SCOPES = ["primary", "all"] as const;
export type EntryScope = (typeof ENTRY_SCOPES)[number];

/**
 * The entries of the default ("primary") view. A participant who marked one
 * of their entries of a track as primary is represented in that track by it
 * alone; one who chose none keeps all their entries, so nobody disappears for
 * not choosing. Baselines are always shown. Ranks are computed among the
 * entries returned (the view is built from them).
 */
export function selectPrimaryEntries<E extends Pick<EntrySource, "isBaseline" | "track" | "ownerId" | "isPrimary">>(entries: readonly E[]): E[] {
  const chosen = new Set<string>();
  for (const entry of entries) {
    if (!entry.isBaseline && entry.isPrimary && entry.ownerId !== undefined) chosen.add(`${entry.ownerId}|${entry.track}`);
  }
  return entries.filter((entry) => {
    if (entry.isBaseline || entry.ownerId === undefined) return true;
    return !chosen.has(`${entry.ownerId}|${entry.track}`) || entry.isPrimary === true;
  });
}
