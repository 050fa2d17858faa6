import { NextResponse } from "next/server";
import { getActor } from "@/lib/auth/get-actor";
import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http";
import { reviewSubmission } from "@/lib/submissions/review-submission";

export const dynamic = "force-dynamic";

/**
 * POST /api/admin/submissions/:id/review — JSON {action: approve|reject|hide|rescore|mark-baseline|unmark-baseline,
 * reason?, baselineLabel? (required for mark-baseline), acknowledge? (ids of raised probe flags)}; maintainers only.
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    const actor = await getActor(request);
    const body: unknown = await request.json().catch(() => {
      throw new AppError("bad_request", "Send the review action as a JSON object.");
    });
    return NextResponse.json(await reviewSubmission(actor, id, body));
  } catch (error) {
    return errorResponse(error);
  }
}
