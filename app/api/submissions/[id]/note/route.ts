import { SUBMISSION_API } from "@/lib/web/api/operations/submissions";
import { route } from "@/lib/web/http/route";
import { updateSubmissionNote } from "@/lib/domain/submissions/update-submission-note";

export const dynamic = "force-dynamic";

/**
 * PATCH /api/submissions/:id/note — JSON {note} (submissionNoteSchema); the owner only. The operation
 * checks ownership before it validates the note: nobody else learns the submission exists.
 */
export const PATCH = route(SUBMISSION_API.updateSubmissionNote.input, async ({ actor, params, body }) => updateSubmissionNote(actor, params.id, body));
