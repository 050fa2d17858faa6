import { SUBMISSION_API } from "@/lib/web/api/operations/submissions";
import { route } from "@/lib/web/http/route";
import { setEntryHidden } from "@/lib/domain/publication/set-entry-hidden";

export const dynamic = "force-dynamic";

/** PATCH /api/submissions/:id/visibility — JSON {hidden: true|false}: the owner hides their published entry or shows it again (browser session). */
export const PATCH = route(SUBMISSION_API.setEntryVisibility.input, async ({ actor, params, body }) => {
  const result = await setEntryHidden(actor, params.id, body.hidden);
  return { id: params.id, ...result };
});
