import { NextResponse } from "next/server";
import { getActor } from "@/lib/auth/get-actor";
import { errorResponse } from "@/lib/http";
import { compareDevRuns } from "@/lib/sample-browser/compare-dev-runs";

export const dynamic = "force-dynamic";

/**
 * GET /api/submissions/compare?old=ID&new=ID — two dev runs of yours (compareQuerySchema ->
 * runComparisonSchema). The changed samples: GET /api/submissions/NEW/samples?against=OLD&change=fixed|broken|changed.
 */
export async function GET(request: Request) {
  try {
    const query = Object.fromEntries(new URL(request.url).searchParams);
    return NextResponse.json(await compareDevRuns(await getActor(request), query), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
