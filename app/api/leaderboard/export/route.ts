import { LEADERBOARD_API } from "@/lib/web/api/operations/leaderboard";
import { AppError } from "@/lib/core/errors";
import { publicOrigin } from "@/lib/platform/public-url";
import { route } from "@/lib/web/http/route";
import { downloadResponse } from "@/lib/platform/http/cached-response";
import { leaderboardExport, renderExport } from "@/lib/core/leaderboard/export-tables";
import { cohortOf } from "@/lib/core/leaderboard/cohort-filters";
import { getLeaderboard } from "@/lib/domain/leaderboard/get-leaderboard";

export const dynamic = "force-dynamic";

/** GET /api/leaderboard/export?track=...&format=csv|json|tex[&type=...][&scope=...][&approach=...&weights=...&source=...&cutoff=...&tier=...]: a leaderboard view as a file. */
export const GET = route(LEADERBOARD_API.exportLeaderboard.input, async ({ request, query }) => {
  const snapshot = await getLeaderboard({ track: query.track, type: query.type ?? null, scope: query.scope, cohort: cohortOf(query) });
  if (snapshot === null) {
    throw new AppError("not_found", "No dataset release is active yet, so there is no leaderboard.");
  }
  return downloadResponse(request, renderExport(leaderboardExport(snapshot.view, publicOrigin()), query.format));
});
