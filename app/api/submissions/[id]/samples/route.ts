import { route } from "@/lib/http/route";
import { getSampleOutcomes, sampleOutcomeQuerySchema } from "@/lib/submissions/get-sample-outcomes";

export const dynamic = "force-dynamic";

/** GET /api/submissions/:id/samples?page=&pageSize=&filter=all|right|wrong — dev submissions only. */
export const GET = route({ auth: "user", params: ["id"], query: sampleOutcomeQuerySchema }, async ({ actor, params, query }) => getSampleOutcomes(actor, params.id, query));
