import { NextResponse } from "next/server";
import type { TestQuotaBody } from "@/lib/api/schemas/submissions";
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
    const quota = await getTestQuota(user.userId, release.id);
    const body: TestQuotaBody = { ...quota, nextFreeAt: quota.nextFreeAt?.toISOString() ?? null };
    return NextResponse.json(body, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
