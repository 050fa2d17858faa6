import { route } from "@/lib/http/route";
import { getSubmissionView } from "@/lib/submissions/get-submission-view";

export const dynamic = "force-dynamic";

/** GET /api/submissions/:id — status, timings, failure reason, scores with CIs and comparisons (owner or maintainer). */
export const GET = route({ auth: "user", params: ["id"] }, async ({ actor, params }) => getSubmissionView(actor, params.id));
