import { NextResponse } from "next/server";
import { SUBMISSION_API } from "@/lib/web/api/operations/submissions";
import { route } from "@/lib/web/http/route";
import { exportSamples } from "@/lib/domain/submissions/export-samples";
import { getSamplePage } from "@/lib/domain/submissions/get-sample-page";

export const dynamic = "force-dynamic";

const CONTENT_TYPES = { csv: "text/csv; charset=utf-8", jsonl: "application/x-ndjson; charset=utf-8" } as const;

/**
 * GET /api/submissions/:id/samples — the instance browser of a DEV submission (sampleQuerySchema ->
 * samplePageSchema): filters type, collection, bucket, class, outcome; search q; sort, dir; page,
 * pageSize (up to 500); format=csv|jsonl exports every filtered row; against=ID compares with
 * another dev run of yours. Test submissions: 404, their per-sample outcomes never leave the server.
 */
export const GET = route(SUBMISSION_API.listSampleOutcomes.input, async ({ actor, params, query }) => {
  if (query.format === "json") return getSamplePage(actor, params.id, query);
  const exported = await exportSamples(actor, params.id, { ...query, format: query.format });
  return new NextResponse(exported.body, {
    headers: {
      "Content-Type": CONTENT_TYPES[exported.format],
      "Content-Disposition": `attachment; filename="${exported.filename}"`,
      "Cache-Control": "no-store",
    },
  });
});
