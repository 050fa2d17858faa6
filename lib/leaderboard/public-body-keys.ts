import type { EntriesQuery, LeaderboardQuery } from "./query-schemas";

/**
 * Keys of the public API's bodies in the public body cache
 * (public-body-cache.ts), from the parsed query: the route handlers store
 * under them and the web server's fast path (public-fast-path.ts) reads
 * under them, so both must build them here.
 */

export function leaderboardBodyKey(query: LeaderboardQuery): string {
  return `leaderboard:${query.track}:${query.type ?? ""}:${query.scope}:${query.offset}:${query.limit}`;
}

export function entriesBodyKey(query: EntriesQuery): string {
  return `entries:${query.track ?? ""}:${query.split ?? ""}:${query.kind}`;
}

export function entryBodyKey(entryId: string): string {
  return `entry:${entryId}`;
}
