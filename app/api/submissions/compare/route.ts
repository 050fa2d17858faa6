import { API } from "@/lib/api/operations";
import { route } from "@/lib/http/route";
import { compareDevRuns } from "@/lib/sample-browser/compare-dev-runs";

export const dynamic = "force-dynamic";

/**
 * GET /api/submissions/compare?old=ID&new=ID — two dev runs of yours (compareQuerySchema ->
 * runComparisonSchema). The changed samples: GET /api/submissions/NEW/samples?against=OLD&change=fixed|broken|changed.
 */
export const GET = route(API.compareRuns.input, async ({ actor, query }) => compareDevRuns(actor, query));
