import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http";
import { entriesApiBody } from "@/lib/leaderboard/api-shapes";
import { cachedJsonResponse } from "@/lib/leaderboard/cached-response";
import { listPublicEntries } from "@/lib/leaderboard/list-public-entries";
import { entriesQuerySchema, parseApiQuery } from "@/lib/leaderboard/query-schemas";

export const dynamic = "force-dynamic";

/** GET /api/entries[?track=open|closed][&split=dev|test][&kind=all|submissions|baselines]: public entries of the active release. */
export async function GET(request: Request): Promise<Response> {
  try {
    const query = parseApiQuery(entriesQuerySchema, new URL(request.url).searchParams);
    const list = await listPublicEntries(query);
    if (list === null) {
      throw new AppError("not_found", "No dataset release is active yet, so there are no entries.");
    }
    return cachedJsonResponse(request, JSON.stringify(entriesApiBody(list)));
  } catch (error) {
    return errorResponse(error);
  }
}
