import { readFileSync } from "node:fs";
import path from "node:path";
import { cohortKeyOf, cohortOf } from "@/lib/core/leaderboard/cohort-filters";
import type { EntriesQuery, LeaderboardQuery } from "@/lib/core/leaderboard/query-schemas";

/**
 * Keys of the public pages' and API's bodies in the public body cache
 * (public-body-cache.ts): the routes store under them and the web server's
 * fast path (public-fast-path.ts) reads under them, so both build them here.
 */

/** The fact-sheet and tier filters are part of the key: each filter set is its own body (lib/core/leaderboard/cohort-filters.ts). */
export function leaderboardBodyKey(query: LeaderboardQuery): string {
  return `leaderboard:${query.track}:${query.type ?? ""}:${query.scope}:${cohortKeyOf(cohortOf(query))}:${query.offset}:${query.limit}`;
}

export function entriesBodyKey(query: EntriesQuery): string {
  return `entries:${query.track ?? ""}:${query.split ?? ""}:${query.kind}`;
}

export function entryBodyKey(entryId: string): string {
  return `entry:${entryId}`;
}

let buildId: string | null = null;

/**
 * The build's id: a new deployment must not serve pages that name the old
 * build's scripts, so it is part of every key.
 */
function currentBuildId(): string {
  if (buildId === null) {
    const distDir = process.env.NEXT_DIST_DIR ?? ".next";
    try {
      buildId = readFileSync(path.join(process.cwd(), distDir, "BUILD_ID"), "utf8").trim();
    } catch {
      buildId = "development";
    }
  }
  return buildId;
}

/** A page's key (`pagePath` canonical, public-page-routing.mjs); a new build never serves the old build's pages. */
export function pageBodyKey(pagePath: string): string {
  return `page:${currentBuildId()}:${pagePath}`;
}
