import { NextResponse } from "next/server";
import type { SubmissionViewBody } from "@/lib/api/schemas/submissions";
import { getActor } from "@/lib/auth/get-actor";
import { errorResponse } from "@/lib/http";
import { getSubmissionView } from "@/lib/submissions/get-submission-view";

export const dynamic = "force-dynamic";

/** GET /api/submissions/:id — status, timings, failure reason, scores with CIs and comparisons (owner or maintainer). */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    // The answer's shape is the documented one (lib/api/schemas, /api/openapi.json).
    const view: SubmissionViewBody = await getSubmissionView(await getActor(request), id);
    return NextResponse.json(view, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
