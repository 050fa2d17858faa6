import { API } from "@/lib/api/operations";
import { route } from "@/lib/http/route";
import { updateSubmissionNote } from "@/lib/submissions/update-submission-note";

export const dynamic = "force-dynamic";

/**
 * PATCH /api/submissions/:id/note — JSON {note} (submissionNoteSchema); the owner only. The operation
 * checks ownership before it validates the note: nobody else learns the submission exists.
 */
export const PATCH = route(API.updateSubmissionNote.input, async ({ actor, params, body }) => updateSubmissionNote(actor, params.id, body));
