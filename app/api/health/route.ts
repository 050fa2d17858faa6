import { NextResponse } from "next/server";
import { checkHealth } from "@/lib/server/check-health";

export const dynamic = "force-dynamic";

/** GET /api/health — database, Redis, queue depth, last worker heartbeat; 200 when healthy, 503 when degraded. */
export async function GET() {
  const report = await checkHealth();
  return NextResponse.json(report, { status: report.status === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
