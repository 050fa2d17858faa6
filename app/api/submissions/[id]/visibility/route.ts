import { route } from "@/lib/http/route";
import { entryVisibilitySchema } from "@/lib/submissions/schemas";
import { setEntryHidden } from "@/lib/submissions/set-entry-hidden";

export const dynamic = "force-dynamic";

/** PUT /api/submissions/:id/visibility — JSON {hidden: true|false}: the owner hides their published entry or shows it again (browser session). */
export const PUT = route({ auth: "session", params: ["id"], body: entryVisibilitySchema }, async ({ actor, params, body }) => {
  const result = await setEntryHidden(actor, params.id, body.hidden);
  return { id: params.id, ...result };
});
