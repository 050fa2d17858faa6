import { route } from "@/lib/http/route";
import { primaryEntrySchema } from "@/lib/submissions/schemas";
import { setPrimaryEntry } from "@/lib/submissions/set-primary-entry";

export const dynamic = "force-dynamic";

/** PUT /api/submissions/:id/primary — JSON {isPrimary: true|false}: the owner's primary entry of this track (browser session). */
export const PUT = route({ auth: "session", params: ["id"], body: primaryEntrySchema }, async ({ actor, params, body }) => {
  const result = await setPrimaryEntry(actor, params.id, body.isPrimary);
  return { id: params.id, ...result };
});
