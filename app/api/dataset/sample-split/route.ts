import { NextResponse } from "next/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http";
import { getActiveRelease } from "@/lib/releases/get-release";

export const dynamic = "force-dynamic";

const querySchema = z.object({ id: z.string().min(1).max(200) });

/** GET /api/dataset/sample-split?id=... — which split of the active release a sample id belongs to (public: ids are in the downloads). */
export async function GET(request: Request) {
  try {
    const query = querySchema.safeParse({ id: new URL(request.url).searchParams.get("id") ?? "" });
    if (!query.success) throw new AppError("validation", "Give a sample id: ?id=...");
    const release = await getActiveRelease();
    const sample = await db.sample.findUnique({ where: { releaseId_sampleId: { releaseId: release.id, sampleId: query.data.id } }, select: { split: true } });
    if (!sample) throw new AppError("not_found", `"${query.data.id}" is not a sample id of ${release.name} ${release.version}.`);
    return NextResponse.json({ id: query.data.id, split: sample.split, release: `${release.name} ${release.version}` });
  } catch (error) {
    return errorResponse(error);
  }
}
