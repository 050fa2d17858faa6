import "server-only";
import { createHash } from "node:crypto";
import type { EntityType } from "@/lib/dataset/release-schema";
import { SCORER_VERSION } from "@/lib/scoring/score-report";
import { buildLeaderboard } from "./build-leaderboard";
import type { LeaderboardView } from "./leaderboard-types";
import { findActiveReleaseStamp, loadLeaderboardData, type ActiveReleaseStamp, type LeaderboardData } from "./load-leaderboard-data";
import { cohortKeyOf, selectCohort, type CohortFilters } from "./cohort-filters";
import { selectPrimaryEntries, type EntryScope } from "./primary-entries";
import type { LeaderboardTrack } from "./views";

/**
 * The leaderboard of the active release, cached in memory per process.
 *
 * One cheap query reads the active release and a version stamp of its public
 * entries, scores, comparisons and reported results; under load it runs at
 * most once per STAMP_TTL_MS (callers in between share its answer), so a
 * change shows within a second. While the stamp is unchanged the data loaded
 * before is reused and each view (track x entity type) is built once; a
 * change of the stamp reloads the data. Concurrent callers share one load.
 */

export type LeaderboardSnapshot = {
  view: LeaderboardView;
  /** Strong validator of what this view shows: changes whenever the view can change. */
  etag: string;
};

type CachedRelease = {
  releaseId: string;
  stamp: string;
  data: Promise<LeaderboardData>;
  views: Map<string, LeaderboardSnapshot>;
};

let cached: CachedRelease | null = null;

const DEFAULT_STAMP_TTL_MS = 1000;
let stampTtlMs = DEFAULT_STAMP_TTL_MS;
let stampCheck: { at: number; result: Promise<ActiveReleaseStamp | null> } | null = null;

function currentStamp(): Promise<ActiveReleaseStamp | null> {
  const now = Date.now();
  if (stampCheck !== null && now - stampCheck.at < stampTtlMs) {
    return stampCheck.result;
  }
  const check = { at: now, result: findActiveReleaseStamp() };
  check.result.catch(() => {
    if (stampCheck === check) stampCheck = null;
  });
  stampCheck = check;
  return check.result;
}

function fullStamp(active: ActiveReleaseStamp): string {
  return `${active.stamp}/${active.goldSha256 ?? ""}/${SCORER_VERSION}`;
}

export type PublicReadStamp = { releaseId: string; stamp: string };

/**
 * The version of everything the public reads of the active release show, from
 * the same (at most STAMP_TTL_MS old) check the leaderboard uses; null when no
 * release is active. Read it before reading what it versions.
 */
export async function findPublicReadStamp(): Promise<PublicReadStamp | null> {
  const active = await currentStamp();
  if (active === null) return null;
  return { releaseId: active.release.id, stamp: `${active.release.id}/${fullStamp(active)}` };
}

function viewKey(track: LeaderboardTrack, type: EntityType | null, scope: EntryScope, cohort: CohortFilters): string {
  return `${track}|${type ?? ""}|${scope}|${cohortKeyOf(cohort)}`;
}

/**
 * One view of the leaderboard. `scope` "primary" (the default) ranks each
 * participant's primary entry of the track (lib/leaderboard/primary-entries.ts);
 * "all" ranks every public entry. `cohort` (fact-sheet and tier filters,
 * lib/leaderboard/cohort-filters.ts) chooses the entries before the view is
 * built, so its ranks are recomputed among them.
 */
export async function getLeaderboard(options: {
  track: LeaderboardTrack;
  type?: EntityType | null;
  scope?: EntryScope;
  cohort?: CohortFilters;
}): Promise<LeaderboardSnapshot | null> {
  const type = options.type ?? null;
  const scope = options.scope ?? "primary";
  const cohort = options.cohort ?? {};
  const active = await currentStamp();
  if (active === null) {
    return null;
  }
  const stamp = fullStamp(active);
  if (cached === null || cached.releaseId !== active.release.id || cached.stamp !== stamp) {
    const data = loadLeaderboardData(active.release.id);
    const entry: CachedRelease = { releaseId: active.release.id, stamp, data, views: new Map() };
    // A failed load must not stick: the next call tries again.
    data.catch(() => {
      if (cached === entry) cached = null;
    });
    cached = entry;
  }
  const current = cached;
  const key = viewKey(options.track, type, scope, cohort);
  const existing = current.views.get(key);
  if (existing !== undefined) {
    return existing;
  }
  const data = await current.data;
  const scoped = scope === "primary" ? selectPrimaryEntries(data.entries) : data.entries;
  const chosen = selectCohort({ entries: scoped, reported: data.reported, releaseDate: data.releaseDate }, cohort);
  const view = buildLeaderboard({
    release: active.release,
    goldSha256: active.goldSha256,
    scorerVersion: SCORER_VERSION,
    track: options.track,
    type,
    goldTypes: data.goldTypes,
    minGroupN: data.minGroupN,
    entries: chosen.entries,
    reported: chosen.reported,
  });
  const etag = `"${createHash("sha256").update(`${current.releaseId}|${stamp}|${key}`).digest("base64url").slice(0, 27)}"`;
  const snapshot: LeaderboardSnapshot = { view, etag };
  current.views.set(key, snapshot);
  return snapshot;
}

/** Drops the cache (tests that rewrite the database under the same stamp). */
export function clearLeaderboardCache(): void {
  cached = null;
  stampCheck = null;
}

/** How long a stamp check is reused; integration tests set 0 to see every change at once. */
export function setLeaderboardStampTtl(milliseconds: number): void {
  stampTtlMs = milliseconds;
  stampCheck = null;
}
