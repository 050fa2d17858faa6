import { LEADERBOARD_API } from "@/lib/web/api/operations/leaderboard";
import { getEnv } from "@/lib/platform/env";
import { AppError } from "@/lib/core/errors";
import { publicOrigin, publicUrl } from "@/lib/platform/public-url";
import { route } from "@/lib/web/http/route";
import { downloadResponse } from "@/lib/platform/http/cached-response";
import { entryCollectionExport, entryTypeExport, renderExport } from "@/lib/core/leaderboard/export-tables";
import { findPublicEntry } from "@/lib/domain/leaderboard/get-public-entry";
import { hasScore, isHubExportFormat, renderHubExport } from "@/lib/core/leaderboard/hub-exports";
import { entryIdSchema } from "@/lib/core/leaderboard/query-schemas";

export const dynamic = "force-dynamic";

/**
 * GET /api/entries/[id]/export?table=by-type|by-collection&format=csv|json|tex: one of an entry's tables as a file;
 * ?format=model-index|eval-results|pwc|every-eval-ever: its results for Hugging Face, a Papers-with-Code-style
 * table or an Every Eval Ever record.
 */
export const GET = route(LEADERBOARD_API.exportEntry.input, async ({ request, params, query }) => {
  // An id that cannot be an entry id names nothing public: 404, like an unknown one.
  const parsedId = entryIdSchema.safeParse(params.id);
  const entry = parsedId.success ? await findPublicEntry(parsedId.data) : null;
  if (entry === null || !hasScore(entry)) {
    throw new AppError("not_found", `No public, scored entry has the id "${params.id.slice(0, 64)}".`);
  }
  const { format } = query;
  if (isHubExportFormat(format)) {
    // A hub file names the release's version as its dataset revision: a score made on other gold must not claim it.
    if (entry.score.isStale) {
      throw new AppError("conflict", `Entry "${entry.id}" was scored against another version of the gold or by an older scorer and waits to be re-scored; its results can be exported for other hubs once it is.`);
    }
    const env = getEnv();
    // The site's address as readers know it (PUBLIC_URL), never the request's Host.
    const context = {
      entryUrl: publicUrl(`/entries/${entry.id}`),
      siteOrigin: publicOrigin(),
      hfDatasetId: env.HF_DATASET_ID,
      bootstrap: { resamples: env.BOOTSTRAP_RESAMPLES, seed: env.BOOTSTRAP_SEED },
    };
    return downloadResponse(request, renderHubExport(entry, format, context));
  }
  const table = query.table === "by-collection" ? entryCollectionExport(entry, publicOrigin()) : entryTypeExport(entry, publicOrigin());
  return downloadResponse(request, renderExport(table, format));
});
