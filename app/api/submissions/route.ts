import { API } from "@/lib/api/operations";
import type { SubmissionCreated, SubmissionSummaryBody } from "@/lib/api/schemas/submissions";
import { errorResponse } from "@/lib/http/error-response";
import { jsonNoStore, route } from "@/lib/http/route";
import { createSubmission } from "@/lib/submissions/create-submission";
import { listSubmissionsOf } from "@/lib/submissions/list-submissions";
import { receiveUpload } from "@/lib/submissions/receive-upload";

export const dynamic = "force-dynamic";

/**
 * POST /api/submissions — multipart upload (field "file", optional "split", "track"); session or Bearer token.
 * The body is streamed (busboy) to a staged file, not read by the wrapper: docs/architecture.md follows it to the leaderboard.
 */
export const POST = route(API.createSubmission.input, async ({ request, actor }) => {
  let upload;
  try {
    upload = await receiveUpload(request);
  } catch (error) {
    // The rest of a refused body is not read: close the connection instead of draining it.
    const response = errorResponse(error);
    response.headers.set("Connection", "close");
    return response;
  }
  const submission = await createSubmission({
    userId: actor.userId,
    staged: upload.staged,
    originalName: upload.originalName,
    declaredSplit: upload.fields.split,
    declaredTrack: upload.fields.track,
  });
  const pageUrl = new URL(`/submissions/${submission.id}`, request.url).toString();
  return jsonNoStore(
    {
      id: submission.id,
      status: submission.status,
      split: submission.split,
      track: submission.track,
      sampleCount: submission.sampleCount,
      statusUrl: new URL(`/api/submissions/${submission.id}`, request.url).toString(),
      pageUrl,
    } satisfies SubmissionCreated,
    { status: 201, headers: { Location: pageUrl } },
  );
});

/** GET /api/submissions — the caller's own submissions. */
export const GET = route(API.listSubmissions.input, async ({ actor }) => {
  const submissions: SubmissionSummaryBody[] = await listSubmissionsOf(actor.userId);
  return { submissions };
});
