import { LEADERBOARD_API } from "@/lib/web/api/operations/leaderboard";
import { AppError } from "@/lib/core/errors";
import { route } from "@/lib/web/http/route";
import { entriesApiBody } from "@/lib/core/leaderboard/api-shapes";
import { listPublicEntries } from "@/lib/domain/leaderboard/list-public-entries";
import { entriesBodyKey } from "@/lib/web/public-cache/public-body-keys";
import { encodedJsonResponse, getPublicBody, type ProducedBody } from "@/lib/web/public-cache/public-body-cache";

export const dynamic = "force-dynamic";

/** GET /api/entries[?track=open|closed][&split=dev|test][&kind=all|submissions|baselines]: public entries of the active release. */
export const GET = route(LEADERBOARD_API.listEntries.input, async ({ request, query }) => {
  const encoded = await getPublicBody(entriesBodyKey(query), async (): Promise<ProducedBody> => {
    const list = await listPublicEntries(query);
    return list === null ? null : { body: JSON.stringify(entriesApiBody(list)), isCacheable: true };
  });
  if (encoded === null) {
    throw new AppError("not_found", "No dataset release is active yet, so there are no entries.");
  }
  return encodedJsonResponse(request, encoded);
});
