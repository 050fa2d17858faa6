import { API } from "@/lib/api/operations";
import { route } from "@/lib/http/route";
import { getSampleOutcomes } from "@/lib/submissions/get-sample-outcomes";

export const dynamic = "force-dynamic";

/** GET /api/submissions/:id/samples?page=&pageSize=&filter=all|right|wrong — dev submissions only. */
export const GET = route(API.listSampleOutcomes.input, async ({ actor, params, query }) => getSampleOutcomes(actor, params.id, query));
