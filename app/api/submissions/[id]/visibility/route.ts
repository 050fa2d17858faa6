import { NextResponse } from "next/server";
import { getActor } from "@/lib/auth/get-actor";
import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http";
import { entryVisibilitySchema } from "@/lib/submissions/schemas";
import { setEntryHidden } from "@/lib/submissions/set-entry-hidden";

export const dynamic = "force-dynamic";

/** PUT /api/submissions/:id/visibility — JSON {hidden: true|false}: the owner hides their published entry or shows it again. */
export async function PUT(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    const actor = await getActor(request);
    const body: unknown = await request.json().catch(() => null);
    const parsed = entryVisibilitySchema.safeParse(body);
    if (!parsed.success) throw new AppError("validation", 'Send {"hidden": true} to hide the entry or {"hidden": false} to show it again.');
    const result = await setEntryHidden(actor, id, parsed.data.hidden);
    return NextResponse.json({ id, ...result });
  } catch (error) {
    return errorResponse(error);
  }
}
