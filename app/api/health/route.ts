import { DATASET_API } from "@/lib/web/api/operations/dataset";
import { route, jsonNoStore } from "@/lib/web/http/route";
import { checkHealth } from "@/lib/web/server/check-health";

export const dynamic = "force-dynamic";

/** GET /api/health — database, Redis, queue depth, last worker heartbeat; 200 when healthy, 503 when degraded. */
export const GET = route(DATASET_API.getHealth.input, async () => {
  const report = await checkHealth();
  return jsonNoStore(report, { status: report.status === "ok" ? 200 : 503 });
});
