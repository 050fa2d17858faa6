import { NextResponse } from "next/server";
import { getActor } from "@/lib/auth/get-actor";
import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http";
import { primaryEntrySchema } from "@/lib/submissions/schemas";
import { setPrimaryEntry } from "@/lib/submissions/set-primary-entry";

export const dynamic = "force-dynamic";

/** PUT /api/submissions/:id/primary — JSON {isPrimary: true|false}: the owner's primary entry of this track. */
export async function PUT(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    const actor = await getActor(request);
    const body: unknown = await request.json().catch(() => null);
    const parsed = primaryEntrySchema.safeParse(body);
    if (!parsed.success) throw new AppError("validation", 'Send {"isPrimary": true} to make this your primary entry of its track, or {"isPrimary": false}.');
    const result = await setPrimaryEntry(actor, id, parsed.data.isPrimary);
    return NextResponse.json({ id, ...result });
  } catch (error) {
    return errorResponse(error);
  }
}
