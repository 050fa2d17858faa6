import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http";
import { leaderboardApiBody } from "@/lib/leaderboard/api-shapes";
import { cachedJsonResponse } from "@/lib/leaderboard/cached-response";
import { getLeaderboard } from "@/lib/leaderboard/get-leaderboard";
import { leaderboardQuerySchema, parseApiQuery } from "@/lib/leaderboard/query-schemas";

export const dynamic = "force-dynamic";

function nextPageUrl(track: string, type: string | undefined, offset: number, limit: number): string {
  const params = new URLSearchParams({ track });
  if (type !== undefined) params.set("type", type);
  params.set("offset", String(offset));
  params.set("limit", String(limit));
  return `/api/leaderboard?${params.toString()}`;
}

/** Serialised pages kept per leaderboard version; other pages are serialised per request. */
const MEMO_LIMIT = 32;

/** GET /api/leaderboard?track=open|closed|unified[&type=Person][&limit=100][&offset=0]: the public leaderboard of the active release, best first. */
export async function GET(request: Request): Promise<Response> {
  try {
    const query = parseApiQuery(leaderboardQuerySchema, new URL(request.url).searchParams);
    const snapshot = await getLeaderboard({ track: query.track, type: query.type ?? null });
    if (snapshot === null) {
      throw new AppError("not_found", "No dataset release is active yet, so there is no leaderboard.");
    }
    // A page is serialised once per change of the leaderboard; Next.js gzips it for clients that ask.
    const key = `${query.offset}:${query.limit}`;
    let body = snapshot.memo.get(key);
    if (body === undefined) {
      const hasMore = query.offset + query.limit < snapshot.view.rows.length;
      const next = hasMore ? nextPageUrl(query.track, query.type, query.offset + query.limit, query.limit) : null;
      body = JSON.stringify(leaderboardApiBody(snapshot.view, { offset: query.offset, limit: query.limit, next }));
      if (snapshot.memo.size < MEMO_LIMIT) snapshot.memo.set(key, body);
    }
    return cachedJsonResponse(request, body, `"${snapshot.etag.slice(1, -1)}-${query.offset}-${query.limit}"`);
  } catch (error) {
    return errorResponse(error);
  }
}
