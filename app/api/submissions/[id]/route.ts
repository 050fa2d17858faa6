import { API } from "@/lib/api/operations";
import type { SubmissionViewBody } from "@/lib/api/schemas/submissions";
import { route } from "@/lib/http/route";
import { getSubmissionView } from "@/lib/submissions/get-submission-view";

export const dynamic = "force-dynamic";

/** GET /api/submissions/:id — status, timings, failure reason, scores with CIs and comparisons (owner or maintainer). */
export const GET = route(API.getSubmission.input, async ({ actor, params }): Promise<SubmissionViewBody> => getSubmissionView(actor, params.id));
