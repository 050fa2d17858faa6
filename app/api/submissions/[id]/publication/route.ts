import { API } from "@/lib/api/operations";
import { jsonNoStore, route } from "@/lib/http/route";
import { requestPublication } from "@/lib/submissions/request-publication";

export const dynamic = "force-dynamic";

/**
 * POST /api/submissions/:id/publication — JSON {systemName, methodDescription, paperUrl?, codeUrl?, parameterCount?, isOpenWeights?, externalData?}.
 * The operation checks ownership before it validates the details: nobody else learns the submission exists.
 */
export const POST = route(API.requestPublication.input, async ({ actor, params, body }) => {
  await requestPublication(actor, params.id, body);
  return jsonNoStore({ id: params.id, publication: "PENDING" }, { status: 202 });
});
