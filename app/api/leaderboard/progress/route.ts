import { LEADERBOARD_API } from "@/lib/web/api/operations/leaderboard";
import { AppError } from "@/lib/core/errors";
import { route } from "@/lib/web/http/route";
import { getProgress } from "@/lib/domain/leaderboard/get-progress";
import { progressApiBody } from "@/lib/core/leaderboard/progress-api";
import { encodedJsonResponse, getPublicBody, type ProducedBody } from "@/lib/web/public-cache/public-body-cache";

export const dynamic = "force-dynamic";

/** GET /api/leaderboard/progress?track=open|closed|unified[&type=Person]: the best published score by date, with its states of the art. */
export const GET = route(LEADERBOARD_API.getLeaderboardProgress.input, async ({ request, query }) => {
  // Keyed by the public read stamp like the leaderboard: publishing, hiding or re-scoring makes a new body.
  const encoded = await getPublicBody(`progress:${query.track}:${query.type ?? ""}`, async (): Promise<ProducedBody> => {
    const view = await getProgress({ track: query.track, type: query.type ?? null });
    return view === null ? null : { body: JSON.stringify(progressApiBody(view)), isCacheable: true };
  });
  if (encoded === null) {
    throw new AppError("not_found", "No dataset release is active yet, so there is no progress timeline.");
  }
  return encodedJsonResponse(request, encoded);
});
