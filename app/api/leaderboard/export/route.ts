import { API } from "@/lib/api/operations";
import { AppError } from "@/lib/errors";
import { publicOrigin } from "@/lib/http/public-url";
import { route } from "@/lib/http/route";
import { downloadResponse } from "@/lib/leaderboard/cached-response";
import { leaderboardExport, renderExport } from "@/lib/leaderboard/export-tables";
import { getLeaderboard } from "@/lib/leaderboard/get-leaderboard";

export const dynamic = "force-dynamic";

/** GET /api/leaderboard/export?track=...&format=csv|json|tex[&type=...]: a leaderboard table as a file. */
export const GET = route(API.exportLeaderboard.input, async ({ request, query }) => {
  const snapshot = await getLeaderboard({ track: query.track, type: query.type ?? null, scope: query.scope });
  if (snapshot === null) {
    throw new AppError("not_found", "No dataset release is active yet, so there is no leaderboard.");
  }
  return downloadResponse(request, renderExport(leaderboardExport(snapshot.view, publicOrigin()), query.format));
});
