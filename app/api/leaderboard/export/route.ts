import { API } from "@/lib/api/operations";
import { AppError } from "@/lib/errors";
import { publicOrigin } from "@/lib/http/public-url";
import { route } from "@/lib/http/route";
import { downloadResponse } from "@/lib/public-cache/cached-response";
import { leaderboardExport, renderExport } from "@/lib/exports/export-tables";
import { cohortOf } from "@/lib/leaderboard/cohort-filters";
import { getLeaderboard } from "@/lib/leaderboard/get-leaderboard";

export const dynamic = "force-dynamic";

/** GET /api/leaderboard/export?track=...&format=csv|json|tex[&type=...][&scope=...][&approach=...&weights=...&source=...&cutoff=...&tier=...]: a leaderboard view as a file. */
export const GET = route(API.exportLeaderboard.input, async ({ request, query }) => {
  const snapshot = await getLeaderboard({ track: query.track, type: query.type ?? null, scope: query.scope, cohort: cohortOf(query) });
  if (snapshot === null) {
    throw new AppError("not_found", "No dataset release is active yet, so there is no leaderboard.");
  }
  return downloadResponse(request, renderExport(leaderboardExport(snapshot.view, publicOrigin()), query.format));
});
