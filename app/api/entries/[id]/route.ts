import { LEADERBOARD_API } from "@/lib/web/api/operations/leaderboard";
import { AppError } from "@/lib/core/errors";
import { route } from "@/lib/web/http/route";
import { entryApiBody } from "@/lib/core/leaderboard/api-shapes";
import { findPublicReadStamp } from "@/lib/domain/leaderboard/get-leaderboard";
import { findPublicEntry } from "@/lib/domain/leaderboard/get-public-entry";
import { entryBodyKey } from "@/lib/web/public-cache/public-body-keys";
import { encodedJsonResponse, getPublicBody, type ProducedBody } from "@/lib/web/public-cache/public-body-cache";
import { entryIdSchema } from "@/lib/core/leaderboard/query-schemas";

export const dynamic = "force-dynamic";

/** GET /api/entries/[id]: one public entry with scores, intervals, per-type and per-collection tables and comparisons. */
export const GET = route(LEADERBOARD_API.getEntry.input, async ({ request, params }) => {
  const parsedId = entryIdSchema.safeParse(params.id);
  const encoded = !parsedId.success
    ? null
    : await getPublicBody(entryBodyKey(parsedId.data), async (): Promise<ProducedBody> => {
        const active = await findPublicReadStamp();
        const entry = await findPublicEntry(parsedId.data);
        if (entry === null) return null;
        // The stamp versions the active release only: an entry of an older release is served, not cached.
        return { body: JSON.stringify(entryApiBody(entry)), isCacheable: entry.release.id === active?.releaseId };
      });
  if (encoded === null) {
    throw new AppError("not_found", `No public entry has the id "${params.id.slice(0, 64)}".`);
  }
  return encodedJsonResponse(request, encoded);
});
