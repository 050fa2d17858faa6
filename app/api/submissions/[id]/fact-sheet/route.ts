import { SUBMISSION_API } from "@/lib/web/api/operations/submissions";
import { route } from "@/lib/web/http/route";
import { editFactSheet } from "@/lib/domain/publication/edit-fact-sheet";

export const dynamic = "force-dynamic";

/**
 * PATCH /api/submissions/:id/fact-sheet — JSON {factSheet, reason?}: replaces the fact sheet.
 * The owner until a maintainer approves the entry; a maintainer at any time (audited; an approved entry needs a reason).
 * The operation checks ownership before it validates the sheet.
 */
export const PATCH = route(SUBMISSION_API.editFactSheet.input, async ({ actor, params, body }) => editFactSheet(actor, params.id, body));
