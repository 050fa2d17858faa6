import { API } from "@/lib/api/operations";
import { AppError } from "@/lib/errors";
import { getEnv } from "@/lib/env";
import { route } from "@/lib/http/route";
import { downloadResponse } from "@/lib/leaderboard/cached-response";
import { entryCollectionExport, entryTypeExport, renderExport } from "@/lib/leaderboard/export-tables";
import { findPublicEntry } from "@/lib/leaderboard/get-public-entry";
import { hasScore, renderHubExport } from "@/lib/leaderboard/hub-exports";
import { entryIdSchema } from "@/lib/leaderboard/query-schemas";

export const dynamic = "force-dynamic";

/** The site's address as readers know it: NEXTAUTH_URL when configured, else the request's origin. */
function siteOrigin(request: Request): string {
  const configured = getEnv().NEXTAUTH_URL;
  return configured === undefined ? new URL(request.url).origin : new URL(configured).origin;
}

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
    const entryUrl = `${siteOrigin(request)}/entries/${entry.id}`;
    return downloadResponse(request, renderHubExport(entry, query.format, { entryUrl }));
  }
  const table = query.table === "by-collection" ? entryCollectionExport(entry) : entryTypeExport(entry);
  return downloadResponse(request, renderExport(table, query.format));
});
