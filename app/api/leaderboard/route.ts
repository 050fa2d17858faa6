import { LEADERBOARD_API } from "@/lib/web/api/operations/leaderboard";
import { AppError } from "@/lib/core/errors";
import { route } from "@/lib/web/http/route";
import { leaderboardApiBody } from "@/lib/core/leaderboard/api-shapes";
import { cohortOf, cohortPairs, type CohortFilters } from "@/lib/core/leaderboard/cohort-filters";
import { getLeaderboard } from "@/lib/domain/leaderboard/get-leaderboard";
import { leaderboardBodyKey } from "@/lib/web/public-cache/public-body-keys";
import { encodedJsonResponse, getPublicBody, type ProducedBody } from "@/lib/web/public-cache/public-body-cache";

export const dynamic = "force-dynamic";

function nextPageUrl(track: string, type: string | undefined, scope: string, cohort: CohortFilters, offset: number, limit: number): string {
  const params = new URLSearchParams({ track });
  if (type !== undefined) params.set("type", type);
  if (scope !== "primary") params.set("scope", scope);
  for (const [key, value] of cohortPairs(cohort)) params.set(key, value);
  params.set("offset", String(offset));
  params.set("limit", String(limit));
  return `/api/leaderboard?${params.toString()}`;
}

/**
 * GET /api/leaderboard?track=open|closed|unified[&type=Person][&scope=primary|all][&approach=...][&weights=yes|no]
 * [&source=yes|no][&cutoff=before|after][&tier=...][&limit=100][&offset=0]: the public leaderboard of the active release, best first.
 */
export const GET = route(LEADERBOARD_API.getLeaderboard.input, async ({ request, query }) => {
  const cohort = cohortOf(query);
  // One body (and its gzip and brotli variants) per page, filter set and version of the leaderboard, shared by all web processes.
  const encoded = await getPublicBody(leaderboardBodyKey(query), async (): Promise<ProducedBody> => {
    const snapshot = await getLeaderboard({ track: query.track, type: query.type ?? null, scope: query.scope, cohort });
    if (snapshot === null) return null;
    const hasMore = query.offset + query.limit < snapshot.view.rows.length;
    const next = hasMore ? nextPageUrl(query.track, query.type, query.scope, cohort, query.offset + query.limit, query.limit) : null;
    return { body: JSON.stringify(leaderboardApiBody(snapshot.view, { offset: query.offset, limit: query.limit, next })), isCacheable: true };
  });
  if (encoded === null) {
    throw new AppError("not_found", "No dataset release is active yet, so there is no leaderboard.");
  }
  return encodedJsonResponse(request, encoded);
});
