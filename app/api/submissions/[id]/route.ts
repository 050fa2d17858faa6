import { API } from "@/lib/api/operations";
import type { SubmissionViewBody } from "@/lib/api/schemas/submissions";
import { publicUrl } from "@/lib/http/public-url";
import { route } from "@/lib/http/route";
import { getSubmissionView } from "@/lib/submissions/get-submission-view";

export const dynamic = "force-dynamic";

/** GET /api/submissions/:id — status, queue position, timings, failure reason, scores with CIs and comparisons (owner or maintainer). */
export const GET = route(API.getSubmission.input, async ({ actor, params }): Promise<SubmissionViewBody> => {
  const view = await getSubmissionView(actor, params.id);
  // Absolute, from the configured public URL: the client prints it as the page to open.
  return { ...view, pageUrl: publicUrl(`/submissions/${view.id}`) };
});
