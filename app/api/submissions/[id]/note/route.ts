import { NextResponse } from "next/server";
import { getActor } from "@/lib/auth/get-actor";
import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http";
import { updateSubmissionNote } from "@/lib/submissions/update-submission-note";

export const dynamic = "force-dynamic";

/** PATCH /api/submissions/:id/note — JSON {note} (submissionNoteSchema); the owner only. */
export async function PATCH(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    const actor = await getActor(request);
    const body: unknown = await request.json().catch(() => {
      throw new AppError("bad_request", 'Send the note as a JSON object: {"note": "..."}.');
    });
    return NextResponse.json(await updateSubmissionNote(actor, id, body), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
