import "server-only";
import { createHash } from "node:crypto";
import type { EntityType } from "@/lib/core/dataset/release-schema";
import { PLATFORM_SCORING_VERSION } from "@/lib/core/scoring/score-report";
import { buildLeaderboard } from "@/lib/core/leaderboard/build-leaderboard";
import type { LeaderboardView, ReleaseRef } from "@/lib/core/leaderboard/leaderboard-types";
import { findActiveReleaseStamp, loadLeaderboardData, type ActiveReleaseStamp, type LeaderboardData } from "./load-leaderboard-data";
import { cohortKeyOf, selectCohort, type CohortFilters } from "@/lib/core/leaderboard/cohort-filters";
import { selectPrimaryEntries, type EntryScope } from "@/lib/core/leaderboard/primary-entries";
import type { LeaderboardTrack } from "@/lib/core/leaderboard/views";

/**
 * The leaderboard of the active release, cached in memory per process.
 *
 * One cheap query reads the active release and a version stamp of its public
 * entries, scores, comparisons and reported results. Callers share one
 * answer for less than the TTL (a second), so a change shows within a second;
 * under load the next query starts shortly before the answer expires, so
 * callers seldom wait for it. While the stamp is unchanged the data loaded
 * before is reused and each view (track x entity type) is built once; a
 * change of the stamp reloads the data. Concurrent callers share one load.
 */

type LeaderboardSnapshot = {
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

/** `settled`: the answer once it came, so a reader that must not wait can take it (peekPublicReadStamp). */
type StampCheck = { at: number; result: Promise<ActiveReleaseStamp | null>; settled?: { publicStamp: PublicReadStamp | null } };
/** `next`: the check started ahead of time, before `last` expires. */
type StampChecks = { ttlMs: number; last: StampCheck | null; next: StampCheck | null };

/**
 * From this share of the TTL on, the next check starts ahead of time, so that
 * readers rarely wait for the query when `last` expires. Every reader still
 * gets a check issued less than the TTL before it asked.
 */
const REFRESH_AHEAD_SHARE = 0.75;

const STAMP_CHECKS = Symbol.for("irc-bench.public-read-stamp");
/**
 * One check per process, on globalThis: the web server's fast path
 * (public-fast-path.ts, loaded from instrumentation.ts) and the route
 * handlers can be separate instances of this module in Next.js's server
 * bundles; sharing the check keeps them on the same stamp.
 */
const stampChecks: StampChecks = ((globalThis as typeof globalThis & { [STAMP_CHECKS]?: StampChecks })[STAMP_CHECKS] ??= {
  ttlMs: DEFAULT_STAMP_TTL_MS,
  last: null,
  next: null,
});

function startCheck(now: number): StampCheck {
  const check: StampCheck = { at: now, result: findActiveReleaseStamp() };
  check.result.then(
    (active) => {
      check.settled = { publicStamp: active === null ? null : publicStampOf(active) };
      // A check started ahead of time takes over once it has its answer.
      if (stampChecks.next !== check) return;
      stampChecks.next = null;
      stampChecks.last = check;
    },
    () => {
      if (stampChecks.last === check) stampChecks.last = null;
      if (stampChecks.next === check) stampChecks.next = null;
    },
  );
  return check;
}

function currentStamp(): Promise<ActiveReleaseStamp | null> {
  const now = Date.now();
  const { last, next, ttlMs } = stampChecks;
  if (last !== null && now - last.at < ttlMs) {
    if (next === null && now - last.at >= ttlMs * REFRESH_AHEAD_SHARE) stampChecks.next = startCheck(now);
    return last.result;
  }
  // `last` expired: the check started ahead of time is younger than the TTL (it started after `last`); wait for it.
  if (next !== null && now - next.at < ttlMs) {
    stampChecks.next = null;
    stampChecks.last = next;
    return next.result;
  }
  const check = startCheck(now);
  stampChecks.last = check;
  stampChecks.next = null;
  return check.result;
}

function fullStamp(active: ActiveReleaseStamp): string {
  return `${active.stamp}/${active.goldSha256 ?? ""}/${PLATFORM_SCORING_VERSION}`;
}

type PublicReadStamp = { releaseId: string; stamp: string };

/**
 * The version of everything the public reads of the active release show, from
 * the same (at most STAMP_TTL_MS old) check the leaderboard uses; null when no
 * release is active. Read it before reading what it versions.
 */
export async function findPublicReadStamp(): Promise<PublicReadStamp | null> {
  const active = await currentStamp();
  return active === null ? null : publicStampOf(active);
}

function publicStampOf(active: ActiveReleaseStamp): PublicReadStamp {
  return { releaseId: active.release.id, stamp: `${active.release.id}/${fullStamp(active)}` };
}

/**
 * findPublicReadStamp without waiting, for the web server's fast path
 * (lib/web/public-cache/public-fast-path.ts): the same stamp when a check younger
 * than the TTL already has its answer (starting the next one ahead of time as
 * currentStamp does), undefined when a reader would have to wait for a query.
 */
export function peekPublicReadStamp(): PublicReadStamp | null | undefined {
  const now = Date.now();
  const { last, next, ttlMs } = stampChecks;
  if (last?.settled === undefined || now - last.at >= ttlMs) return undefined;
  if (next === null && now - last.at >= ttlMs * REFRESH_AHEAD_SHARE) stampChecks.next = startCheck(now);
  return last.settled.publicStamp;
}

/** The cached data of the active release at `active`'s stamp, loading it when the stamp changed. */
function cachedRelease(active: ActiveReleaseStamp): CachedRelease {
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
  return cached;
}

type ActiveLeaderboardData = { release: ReleaseRef; goldSha256: string | null; data: LeaderboardData };

/** The public entries and reported results of the active release, from the same cache as the views (the progress timeline reads them). */
export async function getActiveLeaderboardData(): Promise<ActiveLeaderboardData | null> {
  const active = await currentStamp();
  if (active === null) return null;
  const data = await cachedRelease(active).data;
  return { release: active.release, goldSha256: active.goldSha256, data };
}

function viewKey(track: LeaderboardTrack, type: EntityType | null, scope: EntryScope, cohort: CohortFilters): string {
  return `${track}|${type ?? ""}|${scope}|${cohortKeyOf(cohort)}`;
}

/**
 * One view of the leaderboard. `scope` "primary" (the default) ranks each
 * participant's primary entry of the track (lib/core/leaderboard/primary-entries.ts);
 * "all" ranks every public entry. `cohort` (fact-sheet and tier filters,
 * lib/core/leaderboard/cohort-filters.ts) chooses the entries before the view is
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
  const current = cachedRelease(active);
  const stamp = current.stamp;
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
    scorerVersion: PLATFORM_SCORING_VERSION,
    track: options.track,
    type,
    ...data,
    entries: chosen.entries,
    reported: chosen.reported,
  });
  const etag = `"${createHash("sha256").update(`${current.releaseId}|${stamp}|${key}`).digest("base64url").slice(0, 27)}"`;
  const snapshot: LeaderboardSnapshot = { view, etag };
  current.views.set(key, snapshot);
  return snapshot;
}

/** Drops the cache (tests that rewrite the database under the same stamp). @internal exported for its tests. */
export function clearLeaderboardCache(): void {
  cached = null;
  stampChecks.last = null;
  stampChecks.next = null;
}

/**
 * Forgets this process's stamp check, after a write of public data made in
 * this process: its next read checks the stamp anew, so whoever made the
 * change (an owner hiding an entry, a maintainer approving one) sees it on
 * the very next page, not up to a second later. Other processes see it
 * within the TTL.
 */
export function forgetPublicReadStamp(): void {
  stampChecks.last = null;
  stampChecks.next = null;
}

/** How long a stamp check is reused; integration tests set 0 to see every change at once. @internal exported for its tests. */
export function setLeaderboardStampTtl(milliseconds: number): void {
  stampChecks.ttlMs = milliseconds;
  stampChecks.last = null;
  stampChecks.next = null;
}
