import { SUBMISSION_API } from "@/lib/web/api/operations/submissions";
import type { SubmissionViewBody } from "@/lib/core/api-schemas/submissions";
import { publicUrl } from "@/lib/platform/public-url";
import { route } from "@/lib/web/http/route";
import { getSubmissionView } from "@/lib/domain/submissions/get-submission-view";

export const dynamic = "force-dynamic";

/** GET /api/submissions/:id — status, queue position, timings, failure reason, scores with CIs and comparisons (owner or maintainer). */
export const GET = route(SUBMISSION_API.getSubmission.input, async ({ actor, params }): Promise<SubmissionViewBody> => {
  const view = await getSubmissionView(actor, params.id);
  // Absolute, from the configured public URL: the client prints it as the page to open.
  return { ...view, pageUrl: publicUrl(`/submissions/${view.id}`) };
});
