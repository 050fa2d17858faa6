import { NextResponse } from "next/server";
import { getActor } from "@/lib/auth/get-actor";
import { requireUser } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http";
import { createSubmission } from "@/lib/submissions/create-submission";
import { listSubmissionsOf } from "@/lib/submissions/list-submissions";
import { receiveUpload } from "@/lib/submissions/receive-upload";
import { idempotencyKeySchema } from "@/lib/submissions/schemas";

export const dynamic = "force-dynamic";

/** An upload refused before its body was read to the end. */
class UploadRefusal extends Error {
  constructor(override readonly cause: unknown) {
    super("upload refused");
  }
}

function readIdempotencyKey(request: Request): string | undefined {
  const header = request.headers.get("idempotency-key");
  if (header === null) return undefined;
  const parsed = idempotencyKeySchema.safeParse(header);
  if (!parsed.success) throw new AppError("validation", `The Idempotency-Key header ${parsed.error.issues[0]?.message ?? "is invalid"}.`);
  return parsed.data;
}

/**
 * POST /api/submissions — multipart upload (field "file", optional "split",
 * "track"); session or Bearer token. 201 with the new submission; with an
 * Idempotency-Key header already used for the same file, 200 with the
 * submission that key made (Idempotent-Replayed: true), charged once.
 */
export async function POST(request: Request) {
  try {
    const user = requireUser(await getActor(request));
    const idempotencyKey = readIdempotencyKey(request);
    const upload = await receiveUpload(request).catch((error: unknown) => {
      throw new UploadRefusal(error);
    });
    const submission = await createSubmission({
      userId: user.userId,
      staged: upload.staged,
      originalName: upload.originalName,
      declaredSplit: upload.fields.split,
      declaredTrack: upload.fields.track,
      idempotencyKey,
    });
    const url = new URL(`/submissions/${submission.id}`, request.url);
    const headers = new Headers({ Location: url.toString(), "Cache-Control": "no-store" });
    if (submission.isReplay) headers.set("Idempotent-Replayed", "true");
    return NextResponse.json(
      {
        id: submission.id,
        status: submission.status,
        split: submission.split,
        track: submission.track,
        sampleCount: submission.sampleCount,
        statusUrl: new URL(`/api/submissions/${submission.id}`, request.url).toString(),
        pageUrl: url.toString(),
      },
      { status: submission.isReplay ? 200 : 201, headers },
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
    return NextResponse.json({ submissions: await listSubmissionsOf(user.userId) }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
