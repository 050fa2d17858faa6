import { API } from "@/lib/api/operations";
import { route } from "@/lib/http/route";
import { getErrorAnalysis } from "@/lib/sample-browser/get-error-analysis";

export const dynamic = "force-dynamic";

/** GET /api/submissions/:id/analysis — error classes (errorAnalysisSchema): dev in full; test only as the owner's shares after publication. */
export const GET = route(API.getErrorAnalysis.input, async ({ actor, params }) => getErrorAnalysis(actor, params.id));
