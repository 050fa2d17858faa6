import { NextResponse } from "next/server";
import { getActor } from "@/lib/auth/get-actor";
import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http";
import { getSampleOutcomes, sampleOutcomeQuerySchema } from "@/lib/submissions/get-sample-outcomes";

export const dynamic = "force-dynamic";

/** GET /api/submissions/:id/samples?page=&pageSize=&filter=all|right|wrong — dev submissions only. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    const url = new URL(request.url);
    const query = sampleOutcomeQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    if (!query.success) throw new AppError("validation", "page and pageSize must be positive integers (pageSize 10-500) and filter one of all, right, wrong.");
    const page = await getSampleOutcomes(await getActor(request), id, query.data);
    return NextResponse.json(page, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
