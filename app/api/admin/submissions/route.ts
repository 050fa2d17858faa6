import { NextResponse } from "next/server";
import { getActor } from "@/lib/auth/get-actor";
import { errorResponse } from "@/lib/http";
import { listReviewQueue } from "@/lib/submissions/list-review-queue";

export const dynamic = "force-dynamic";

/** GET /api/admin/submissions — the review queue (pending requests, then the latest 100), with each test file's probe_flags; maintainers only. */
export async function GET(request: Request) {
  try {
    const queue = await listReviewQueue(await getActor(request));
    return NextResponse.json(queue, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
