import { AppError } from "@/lib/core/errors";
import { SUBMISSION_API } from "@/lib/web/api/operations/submissions";
import type { SubmissionCreated, SubmissionSummaryBody } from "@/lib/core/api-schemas/submissions";
import { errorResponse } from "@/lib/web/http/error-response";
import { publicUrl } from "@/lib/platform/public-url";
import { jsonNoStore, route } from "@/lib/web/http/route";
import { requestIp } from "@/lib/platform/rate-limit/request-ip";
import { createSubmission } from "@/lib/domain/uploads/create-submission";
import { listSubmissionsOf } from "@/lib/domain/submissions/list-submissions";
import { receiveUpload } from "@/lib/domain/uploads/receive-upload";
import { idempotencyKeySchema } from "@/lib/core/submissions/schemas";

export const dynamic = "force-dynamic";

function readIdempotencyKey(request: Request): string | undefined {
  const header = request.headers.get("idempotency-key");
  if (header === null) return undefined;
  const parsed = idempotencyKeySchema.safeParse(header);
  if (!parsed.success) throw new AppError("validation", `The Idempotency-Key header ${parsed.error.issues[0]?.message ?? "is invalid"}.`);
  return parsed.data;
}

/**
 * POST /api/submissions — multipart upload (field "file", optional "split", "track"); session or Bearer token.
 * The body is streamed (busboy) to a staged file, not read by the wrapper: docs/architecture.md follows it to the leaderboard.
 * 201 with the new submission; with an Idempotency-Key header already used for the same file, 200 with the
 * submission that key made (Idempotent-Replayed: true), charged once (docs/submissions.md).
 */
export const POST = route(SUBMISSION_API.createSubmission.input, async ({ request, actor }) => {
  let upload;
  let idempotencyKey;
  try {
    idempotencyKey = readIdempotencyKey(request);
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
    idempotencyKey,
    clientIp: requestIp(request.headers),
  });
  // Absolute links from the configured public URL, not from this request's Host (behind a proxy that is an internal address).
  const pageUrl = publicUrl(`/submissions/${submission.id}`);
  const headers: Record<string, string> = { Location: pageUrl };
  if (submission.isReplay) headers["Idempotent-Replayed"] = "true";
  return jsonNoStore(
    {
      id: submission.id,
      status: submission.status,
      split: submission.split,
      track: submission.track,
      sampleCount: submission.sampleCount,
      statusUrl: publicUrl(`/api/submissions/${submission.id}`),
      pageUrl,
    } satisfies SubmissionCreated,
    { status: submission.isReplay ? 200 : 201, headers },
  );
});

/** GET /api/submissions — the caller's own submissions. */
export const GET = route(SUBMISSION_API.listSubmissions.input, async ({ actor }) => {
  const submissions: SubmissionSummaryBody[] = await listSubmissionsOf(actor.userId);
  return { submissions };
});
