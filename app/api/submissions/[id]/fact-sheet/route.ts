import { API } from "@/lib/api/operations";
import { route } from "@/lib/http/route";
import { editFactSheet } from "@/lib/submissions/edit-fact-sheet";

export const dynamic = "force-dynamic";

/**
 * PATCH /api/submissions/:id/fact-sheet — JSON {factSheet, reason?}: replaces the fact sheet.
 * The owner until a maintainer approves the entry; a maintainer at any time (audited; an approved entry needs a reason).
 * The operation checks ownership before it validates the sheet.
 */
export const PATCH = route(API.editFactSheet.input, async ({ actor, params, body }) => editFactSheet(actor, params.id, body));
