import { SUBMISSION_API } from "@/lib/web/api/operations/submissions";
import { route } from "@/lib/web/http/route";
import { compareDevRuns } from "@/lib/domain/submissions/compare-dev-runs";

export const dynamic = "force-dynamic";

/**
 * GET /api/submissions/compare?old=ID&new=ID — two dev runs of yours (compareQuerySchema ->
 * runComparisonSchema). The changed samples: GET /api/submissions/NEW/samples?against=OLD&change=fixed|broken|changed.
 */
export const GET = route(SUBMISSION_API.compareRuns.input, async ({ actor, query }) => compareDevRuns(actor, query));
