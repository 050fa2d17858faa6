import { API } from "@/lib/api/operations";
import { route, jsonNoStore } from "@/lib/http/route";
import { checkHealth } from "@/lib/server/check-health";

export const dynamic = "force-dynamic";

/** GET /api/health — database, Redis, queue depth, last worker heartbeat; 200 when healthy, 503 when degraded. */
export const GET = route(API.getHealth.input, async () => {
  const report = await checkHealth();
  return jsonNoStore(report, { status: report.status === "ok" ? 200 : 503 });
});
