import { NextResponse } from "next/server";
import { getActor } from "@/lib/auth/get-actor";
import { requireUser } from "@/lib/auth/actor";
import { errorResponse } from "@/lib/http";
import { getActiveRelease } from "@/lib/releases/get-release";
import { getTestQuota } from "@/lib/submissions/quota";

export const dynamic = "force-dynamic";

/** GET /api/quota — the caller's remaining test submissions on the active release. */
export async function GET(request: Request) {
  try {
    const user = requireUser(await getActor(request));
    const release = await getActiveRelease();
    return NextResponse.json(await getTestQuota(user.userId, release.id), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
