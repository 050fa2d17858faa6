import { NextResponse } from "next/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http";
import { getActiveRelease } from "@/lib/releases/get-release";
import { freeText, quoteForMessage } from "@/lib/validation/text";

export const dynamic = "force-dynamic";

const querySchema = z.object({ id: freeText().min(1).max(200) });

/** GET /api/dataset/sample-split?id=... — which split of the active release a sample id belongs to (public: ids are in the downloads). */
export async function GET(request: Request) {
  try {
    const query = querySchema.safeParse({ id: new URL(request.url).searchParams.get("id") ?? "" });
    if (!query.success) throw new AppError("validation", `The query parameter "id" ${query.error.issues[0]?.message ?? "is invalid"}: give a sample id, ?id=...`);
    const release = await getActiveRelease();
    const sample = await db.sample.findUnique({ where: { releaseId_sampleId: { releaseId: release.id, sampleId: query.data.id } }, select: { split: true } });
    if (!sample) throw new AppError("not_found", `${quoteForMessage(query.data.id, 200)} is not a sample id of ${release.name} ${release.version}.`);
    return NextResponse.json({ id: query.data.id, split: sample.split, release: `${release.name} ${release.version}` });
  } catch (error) {
    return errorResponse(error);
  }
}
