import "server-only";
import type { Prisma } from "@/lib/platform/generated/prisma";
import { buildLeaderboard } from "@/lib/core/leaderboard/build-leaderboard";
import { LEADERBOARD_TRACKS } from "@/lib/core/leaderboard/views";
import { PLATFORM_SCORING_VERSION } from "@/lib/core/scoring/score-report";
import { releaseGoldOf } from "@/lib/core/scoring/score-staleness";
import { diffViewStates, viewStateOf, type PublicViewState, type ViewErrata } from "@/lib/core/public-log/view-errata";
import { loadLeaderboardData } from "@/lib/domain/leaderboard/load-leaderboard-data";
import { lockPublicLog } from "./append-public-log";

/**
 * The public log's memory of what a release's leaderboard last showed
 * (PublicLogViewState; lib/core/public-log/view-errata.ts): read in the
 * transaction of a change, after the change, through the same loader and
 * builder as the public pages (so every number passed lib/core/disclosure),
 * every entry of the overall views ("all entries" scope). Under the log's lock,
 * so two changes never both start from the same state.
 */

type ErrataClient = Prisma.TransactionClient;

async function capturePublicViews(tx: ErrataClient, releaseId: string): Promise<PublicViewState> {
  const release = await tx.datasetRelease.findUniqueOrThrow({ where: { id: releaseId }, select: { id: true, name: true, version: true, goldSha256: true } });
  const data = await loadLeaderboardData(releaseId, tx);
  const state: PublicViewState = {};
  for (const track of LEADERBOARD_TRACKS) {
    const view = buildLeaderboard({
      release: { id: release.id, name: release.name, version: release.version },
      goldSha256: releaseGoldOf(release.goldSha256, "test"),
      scorerVersion: PLATFORM_SCORING_VERSION,
      track,
      type: null,
      ...data,
    });
    state[track] = viewStateOf(view);
  }
  return state;
}

/**
 * Compares the release's public views now (the caller's change included)
 * with the state last kept, keeps the new state, and returns the differences.
 */
export async function takeViewErrata(tx: ErrataClient, releaseId: string): Promise<ViewErrata> {
  await lockPublicLog(tx);
  const kept = await tx.publicLogViewState.findUnique({ where: { releaseId }, select: { state: true } });
  const now = await capturePublicViews(tx, releaseId);
  const { errata, next } = diffViewStates((kept?.state ?? null) as PublicViewState | null, now);
  const state = next as Prisma.InputJsonObject;
  await tx.publicLogViewState.upsert({ where: { releaseId }, create: { releaseId, state }, update: { state } });
  return errata;
}
