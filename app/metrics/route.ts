import { getEnv } from "@/lib/env";
import { checkMetricsAccess } from "@/lib/metrics/metrics-access";
import { renderMetrics } from "@/lib/metrics/render-metrics";

export const dynamic = "force-dynamic";

/**
 * GET /metrics — Prometheus text format: queue depth, worker liveness, every
 * live worker's job durations and outcomes, upload sizes, HTTP latency by
 * route. 404 while METRICS_TOKEN is unset; 401 without "Authorization: Bearer <METRICS_TOKEN>".
 */
export async function GET(request: Request) {
  const access = checkMetricsAccess(request.headers.get("authorization"), getEnv().METRICS_TOKEN);
  if (access === "disabled") return new Response("Not found\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  if (access === "unauthorized") {
    return new Response("Send the metrics token as \"Authorization: Bearer <METRICS_TOKEN>\".\n", {
      status: 401,
      headers: { "Content-Type": "text/plain; charset=utf-8", "WWW-Authenticate": 'Bearer realm="metrics"', "Cache-Control": "no-store" },
    });
  }
  const { contentType, body } = await renderMetrics();
  return new Response(body, { status: 200, headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
}
