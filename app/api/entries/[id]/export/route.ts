import { API } from "@/lib/api/operations";
import { AppError } from "@/lib/errors";
import { publicOrigin, publicUrl } from "@/lib/http/public-url";
import { route } from "@/lib/http/route";
import { downloadResponse } from "@/lib/leaderboard/cached-response";
import { entryCollectionExport, entryTypeExport, renderExport } from "@/lib/leaderboard/export-tables";
import { findPublicEntry } from "@/lib/leaderboard/get-public-entry";
import { hasScore, renderHubExport } from "@/lib/leaderboard/hub-exports";
import { entryIdSchema } from "@/lib/leaderboard/query-schemas";

export const dynamic = "force-dynamic";

/**
 * GET /api/entries/[id]/export?table=by-type|by-collection&format=csv|json|tex: one of an entry's tables as a file;
 * ?format=model-index|eval-results|pwc: its results for Hugging Face or a Papers-with-Code-style table.
 */
export const GET = route(API.exportEntry.input, async ({ request, params, query }) => {
  // An id that cannot be an entry id names nothing public: 404, like an unknown one.
  const parsedId = entryIdSchema.safeParse(params.id);
  const entry = parsedId.success ? await findPublicEntry(parsedId.data) : null;
  if (entry === null || !hasScore(entry)) {
    throw new AppError("not_found", `No public, scored entry has the id "${params.id.slice(0, 64)}".`);
  }
  if (query.format === "model-index" || query.format === "eval-results" || query.format === "pwc") {
    // A hub file names the release's version as its dataset revision: a score made on other gold must not claim it.
    if (entry.score.isStale) {
      throw new AppError("conflict", `Entry "${entry.id}" was scored against another version of the gold or by an older scorer and waits to be re-scored; its results can be exported for other hubs once it is.`);
    }
    // The site's address as readers know it (PUBLIC_URL), never the request's Host.
    const entryUrl = publicUrl(`/entries/${entry.id}`);
    return downloadResponse(request, renderHubExport(entry, query.format, { entryUrl }));
  }
  const table = query.table === "by-collection" ? entryCollectionExport(entry, publicOrigin()) : entryTypeExport(entry, publicOrigin());
  return downloadResponse(request, renderExport(table, query.format));
});
