import { SUBMISSION_API } from "@/lib/web/api/operations/submissions";
import { jsonNoStore, route } from "@/lib/web/http/route";
import { requestPublication } from "@/lib/domain/publication/request-publication";
import { withdrawPublicationRequest } from "@/lib/domain/publication/withdraw-publication-request";

export const dynamic = "force-dynamic";

/**
 * POST /api/submissions/:id/publication — JSON {methodDescription, factSheet} (the fact sheet: lib/core/fact-sheet/schema.ts).
 * The operation checks ownership before it validates the details: nobody else learns the submission exists.
 */
export const POST = route(SUBMISSION_API.requestPublication.input, async ({ actor, params, body }) => {
  await requestPublication(actor, params.id, body);
  return jsonNoStore({ id: params.id, publication: "PENDING" }, { status: 202 });
});

/** DELETE /api/submissions/:id/publication — the owner withdraws a pending request (browser session). */
export const DELETE = route(SUBMISSION_API.withdrawPublication.input, async ({ actor, params }) => {
  await withdrawPublicationRequest(actor, params.id);
  return { id: params.id, publication: "PRIVATE" };
});
