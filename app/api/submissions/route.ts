import { NextResponse } from "next/server";
import type { SubmissionCreated, SubmissionSummaryBody } from "@/lib/api/schemas/submissions";
import { getActor } from "@/lib/auth/get-actor";
import { requireUser } from "@/lib/auth/actor";
import { errorResponse } from "@/lib/http";
import { createSubmission } from "@/lib/submissions/create-submission";
import { listSubmissionsOf } from "@/lib/submissions/list-submissions";
import { receiveUpload } from "@/lib/submissions/receive-upload";

export const dynamic = "force-dynamic";

/** An upload refused before its body was read to the end. */
class UploadRefusal extends Error {
  constructor(override readonly cause: unknown) {
    super("upload refused");
  }
}

/** POST /api/submissions — multipart upload (field "file", optional "split", "track"); session or Bearer token. */
export async function POST(request: Request) {
  try {
    const user = requireUser(await getActor(request));
    const upload = await receiveUpload(request).catch((error: unknown) => {
      throw new UploadRefusal(error);
    });
    const submission = await createSubmission({
      userId: user.userId,
      staged: upload.staged,
      originalName: upload.originalName,
      declaredSplit: upload.fields.split,
      declaredTrack: upload.fields.track,
    });
    const url = new URL(`/submissions/${submission.id}`, request.url);
    return NextResponse.json(
      {
        id: submission.id,
        status: submission.status,
        split: submission.split,
        track: submission.track,
        sampleCount: submission.sampleCount,
        statusUrl: new URL(`/api/submissions/${submission.id}`, request.url).toString(),
        pageUrl: url.toString(),
      } satisfies SubmissionCreated,
      { status: 201, headers: { Location: url.toString(), "Cache-Control": "no-store" } },
    );
  } catch (error) {
    if (!(error instanceof UploadRefusal)) return errorResponse(error);
    // The rest of a refused body is not read: close the connection instead of draining it.
    const response = errorResponse(error.cause);
    response.headers.set("Connection", "close");
    return response;
  }
}

/** GET /api/submissions — the caller's own submissions. */
export async function GET(request: Request) {
  try {
    const user = requireUser(await getActor(request));
    const submissions: SubmissionSummaryBody[] = await listSubmissionsOf(user.userId);
    return NextResponse.json({ submissions }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
