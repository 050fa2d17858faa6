import { getEnv } from "@/lib/platform/env";
import { route } from "@/lib/web/http/route";
import { checkMetricsAccess } from "@/lib/platform/metrics/metrics-access";
import { renderMetrics } from "@/lib/web/server/render-metrics";

export const dynamic = "force-dynamic";

const PLAIN_TEXT = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" };

/**
 * GET /metrics — Prometheus text format: queue depth, worker liveness, every
 * live worker's job durations and outcomes, upload sizes, HTTP latency by
 * route. Its own token, not a user's: 404 while METRICS_TOKEN is unset, 401
 * without "Authorization: Bearer <METRICS_TOKEN>" (docs/operations.md).
 */
export const GET = route({ auth: "public" }, async ({ request }) => {
  const access = checkMetricsAccess(request.headers.get("authorization"), getEnv().METRICS_TOKEN);
  if (access === "disabled") return new Response("Not found\n", { status: 404, headers: PLAIN_TEXT });
  if (access === "unauthorized") {
    return new Response('Send the metrics token as "Authorization: Bearer <METRICS_TOKEN>".\n', {
      status: 401,
      headers: { ...PLAIN_TEXT, "WWW-Authenticate": 'Bearer realm="metrics"' },
    });
  }
  const { contentType, body } = await renderMetrics();
  return new Response(body, { status: 200, headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
});
