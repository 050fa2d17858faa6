import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http";
import { entryApiBody } from "@/lib/leaderboard/api-shapes";
import { cachedJsonResponse } from "@/lib/leaderboard/cached-response";
import { findPublicEntry } from "@/lib/leaderboard/get-public-entry";
import { entryIdSchema, parseApiQuery } from "@/lib/leaderboard/query-schemas";
import { z } from "zod";

export const dynamic = "force-dynamic";

/** GET /api/entries/[id]: one public entry with scores, intervals, per-type and per-collection tables and comparisons. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    parseApiQuery(z.object({}).strict(), new URL(request.url).searchParams);
    const { id } = await context.params;
    const parsedId = entryIdSchema.safeParse(id);
    const entry = parsedId.success ? await findPublicEntry(parsedId.data) : null;
    if (entry === null) {
      throw new AppError("not_found", `No public entry has the id "${id.slice(0, 64)}".`);
    }
    return cachedJsonResponse(request, JSON.stringify(entryApiBody(entry)));
  } catch (error) {
    return errorResponse(error);
  }
}
