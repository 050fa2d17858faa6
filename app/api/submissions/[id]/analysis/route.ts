import { NextResponse } from "next/server";
import { getActor } from "@/lib/auth/get-actor";
import { errorResponse } from "@/lib/http";
import { getErrorAnalysis } from "@/lib/sample-browser/get-error-analysis";

export const dynamic = "force-dynamic";

/** GET /api/submissions/:id/analysis — error classes (errorAnalysisSchema): dev in full; test only as the owner's shares after publication. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    return NextResponse.json(await getErrorAnalysis(await getActor(request), id), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
