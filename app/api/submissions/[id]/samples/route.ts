import { NextResponse } from "next/server";
import { getActor } from "@/lib/auth/get-actor";
import { errorResponse } from "@/lib/http";
import { exportSamples } from "@/lib/sample-browser/export-samples";
import { getSamplePage, parseSampleQuery } from "@/lib/sample-browser/get-sample-page";

export const dynamic = "force-dynamic";

const CONTENT_TYPES = { csv: "text/csv; charset=utf-8", jsonl: "application/x-ndjson; charset=utf-8" } as const;

/**
 * GET /api/submissions/:id/samples — the instance browser of a DEV submission (sampleQuerySchema ->
 * samplePageSchema): filters type, collection, bucket, class, outcome; search q; sort, dir; page,
 * pageSize (up to 500); format=csv|jsonl exports every filtered row; against=ID compares with
 * another dev run of yours. Test submissions: 404, their per-sample outcomes never leave the server.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    const query = parseSampleQuery(Object.fromEntries(new URL(request.url).searchParams));
    const actor = await getActor(request);
    if (query.format === "json") {
      return NextResponse.json(await getSamplePage(actor, id, query), { headers: { "Cache-Control": "no-store" } });
    }
    const exported = await exportSamples(actor, id, { ...query, format: query.format });
    return new NextResponse(exported.body, {
      headers: {
        "Content-Type": CONTENT_TYPES[exported.format],
        "Content-Disposition": `attachment; filename="${exported.filename}"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
