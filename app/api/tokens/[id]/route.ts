import { NextResponse } from "next/server";
import { getActor } from "@/lib/auth/get-actor";
import { errorResponse } from "@/lib/http";
import { revokeApiToken } from "@/lib/tokens/revoke-api-token";

export const dynamic = "force-dynamic";

/** DELETE /api/tokens/:id: revoke a token (its owner, or a maintainer's session; others get 404). */
export async function DELETE(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    const apiToken = await revokeApiToken({ actor: await getActor(request), tokenId: id });
    return NextResponse.json({ apiToken }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
