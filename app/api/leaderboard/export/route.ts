import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http";
import { downloadResponse } from "@/lib/leaderboard/cached-response";
import { leaderboardExport, renderExport } from "@/lib/leaderboard/export-tables";
import { getLeaderboard } from "@/lib/leaderboard/get-leaderboard";
import { leaderboardExportQuerySchema, parseApiQuery } from "@/lib/leaderboard/query-schemas";

export const dynamic = "force-dynamic";

/** GET /api/leaderboard/export?track=...&format=csv|json|tex[&type=...]: a leaderboard table as a file. */
export async function GET(request: Request): Promise<Response> {
  try {
    const query = parseApiQuery(leaderboardExportQuerySchema, new URL(request.url).searchParams);
    const snapshot = await getLeaderboard({ track: query.track, type: query.type ?? null, scope: query.scope });
    if (snapshot === null) {
      throw new AppError("not_found", "No dataset release is active yet, so there is no leaderboard.");
    }
    return downloadResponse(request, renderExport(leaderboardExport(snapshot.view), query.format));
  } catch (error) {
    return errorResponse(error);
  }
}
