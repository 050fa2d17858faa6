import { API } from "@/lib/api/operations";
import { AppError } from "@/lib/errors";
import { publicOrigin } from "@/lib/http/public-url";
import { route } from "@/lib/http/route";
import { downloadResponse } from "@/lib/leaderboard/cached-response";
import { entryCollectionExport, entryTypeExport, renderExport } from "@/lib/leaderboard/export-tables";
import { findPublicEntry } from "@/lib/leaderboard/get-public-entry";
import { entryIdSchema } from "@/lib/leaderboard/query-schemas";

export const dynamic = "force-dynamic";

/** GET /api/entries/[id]/export?table=by-type|by-collection&format=csv|json|tex: one of an entry's tables as a file. */
export const GET = route(API.exportEntry.input, async ({ request, params, query }) => {
  // An id that cannot be an entry id names nothing public: 404, like an unknown one.
  const parsedId = entryIdSchema.safeParse(params.id);
  const entry = parsedId.success ? await findPublicEntry(parsedId.data) : null;
  if (entry === null || entry.score === null) {
    throw new AppError("not_found", `No public, scored entry has the id "${params.id.slice(0, 64)}".`);
  }
  const table = query.table === "by-type" ? entryTypeExport(entry, publicOrigin()) : entryCollectionExport(entry, publicOrigin());
  return downloadResponse(request, renderExport(table, query.format));
});
