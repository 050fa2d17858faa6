import { SUBMISSION_API } from "@/lib/web/api/operations/submissions";
import { route } from "@/lib/web/http/route";
import { getErrorAnalysis } from "@/lib/domain/submissions/get-error-analysis";

export const dynamic = "force-dynamic";

/** GET /api/submissions/:id/analysis — error classes (errorAnalysisSchema): dev in full; test only as the owner's shares after publication. */
export const GET = route(SUBMISSION_API.getErrorAnalysis.input, async ({ actor, params }) => getErrorAnalysis(actor, params.id));
