import { API } from "@/lib/api/operations";
import { route } from "@/lib/http/route";
import { setPrimaryEntry } from "@/lib/submissions/set-primary-entry";

export const dynamic = "force-dynamic";

/** PATCH /api/submissions/:id/primary — JSON {isPrimary: true|false}: the owner's primary entry of this track (browser session). */
export const PATCH = route(API.setPrimaryEntry.input, async ({ actor, params, body }) => {
  const result = await setPrimaryEntry(actor, params.id, body.isPrimary);
  return { id: params.id, ...result };
});
