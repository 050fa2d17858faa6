import { SUBMISSION_API } from "@/lib/web/api/operations/submissions";
import { route } from "@/lib/web/http/route";
import { setPrimaryEntry } from "@/lib/domain/publication/set-primary-entry";

export const dynamic = "force-dynamic";

/** PATCH /api/submissions/:id/primary — JSON {isPrimary: true|false}: the owner's primary entry of this track (browser session). */
export const PATCH = route(SUBMISSION_API.setPrimaryEntry.input, async ({ actor, params, body }) => {
  const result = await setPrimaryEntry(actor, params.id, body.isPrimary);
  return { id: params.id, ...result };
});
