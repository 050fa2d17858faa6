import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http";
import { downloadResponse } from "@/lib/leaderboard/cached-response";
import { entryCollectionExport, entryTypeExport, renderExport } from "@/lib/leaderboard/export-tables";
import { findPublicEntry } from "@/lib/leaderboard/get-public-entry";
import { entryExportQuerySchema, entryIdSchema, parseApiQuery } from "@/lib/leaderboard/query-schemas";

export const dynamic = "force-dynamic";

/** GET /api/entries/[id]/export?table=by-type|by-collection&format=csv|json|tex: one of an entry's tables as a file. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const query = parseApiQuery(entryExportQuerySchema, new URL(request.url).searchParams);
    const { id } = await context.params;
    const parsedId = entryIdSchema.safeParse(id);
    const entry = parsedId.success ? await findPublicEntry(parsedId.data) : null;
    if (entry === null || entry.score === null) {
      throw new AppError("not_found", `No public, scored entry has the id "${id.slice(0, 64)}".`);
    }
    const table = query.table === "by-type" ? entryTypeExport(entry) : entryCollectionExport(entry);
    return downloadResponse(request, renderExport(table, query.format));
  } catch (error) {
    return errorResponse(error);
  }
}
