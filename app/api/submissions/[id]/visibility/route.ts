import { API } from "@/lib/api/operations";
import { route } from "@/lib/http/route";
import { setEntryHidden } from "@/lib/submissions/set-entry-hidden";

export const dynamic = "force-dynamic";

/** PATCH /api/submissions/:id/visibility — JSON {hidden: true|false}: the owner hides their published entry or shows it again (browser session). */
export const PATCH = route(API.setEntryVisibility.input, async ({ actor, params, body }) => {
  const result = await setEntryHidden(actor, params.id, body.hidden);
  return { id: params.id, ...result };
});
