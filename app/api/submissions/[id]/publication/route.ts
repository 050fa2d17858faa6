import { NextResponse } from "next/server";
import { getActor } from "@/lib/auth/get-actor";
import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http";
import { requestPublication } from "@/lib/submissions/request-publication";
import { withdrawPublicationRequest } from "@/lib/submissions/withdraw-publication-request";

export const dynamic = "force-dynamic";

/** POST /api/submissions/:id/publication — JSON {systemName, methodDescription, paperUrl?, codeUrl?, parameterCount?, isOpenWeights?, externalData?}. */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    const actor = await getActor(request);
    const body: unknown = await request.json().catch(() => {
      throw new AppError("bad_request", "Send the publication details as a JSON object.");
    });
    await requestPublication(actor, id, body);
    return NextResponse.json({ id, publication: "PENDING" }, { status: 202 });
  } catch (error) {
    return errorResponse(error);
  }
}

/** DELETE /api/submissions/:id/publication — the owner withdraws a pending request (browser session). */
export async function DELETE(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    await withdrawPublicationRequest(await getActor(request), id);
    return NextResponse.json({ id, publication: "PRIVATE" });
  } catch (error) {
    return errorResponse(error);
  }
}
