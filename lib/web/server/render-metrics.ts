import "server-only";
import { logger } from "@/lib/platform/logger";
import { webMetrics } from "@/lib/platform/metrics/web-metrics";
import { renderWorkerMetrics } from "@/lib/platform/queue/worker-metrics-store";
import { getSharedRedis } from "@/lib/platform/redis";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { readWorkerHeartbeats } from "@/lib/platform/queue/worker-heartbeat";

const REDIS_TIMEOUT_MS = 2_000;
const QUEUE_STATES = ["waiting", "active", "delayed", "failed", "completed"] as const;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${REDIS_TIMEOUT_MS} ms`)), REDIS_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Queue depth and worker liveness, read from Redis now; the gauges are cleared (absent) when Redis cannot be read. */
async function refreshQueueGauges(now: Date): Promise<string> {
  const metrics = webMetrics();
  try {
    const counts = await withTimeout(getScoringQueue().getJobCounts(...QUEUE_STATES, "prioritized"));
    const beats = await withTimeout(readWorkerHeartbeats(getSharedRedis(), now));
    metrics.queueJobs.reset();
    for (const state of QUEUE_STATES) {
      const extra = state === "waiting" ? (counts.prioritized ?? 0) : 0;
      metrics.queueJobs.set({ state }, (counts[state] ?? 0) + extra);
    }
    metrics.workersAlive.set(beats.workersAlive);
    metrics.workerHeartbeatAge.reset();
    if (beats.lastHeartbeatAt) metrics.workerHeartbeatAge.set((now.getTime() - beats.lastHeartbeatAt.getTime()) / 1000);
    metrics.redisUp.set(1);
    return await withTimeout(renderWorkerMetrics(getSharedRedis(), now));
  } catch (error) {
    logger.warn({ err: error }, "metrics: could not read the queue from Redis");
    metrics.queueJobs.reset();
    metrics.workersAlive.reset();
    metrics.workerHeartbeatAge.reset();
    metrics.redisUp.set(0);
    return "";
  }
}

/** The Prometheus text exposition of this web process and of every live scoring worker. */
export async function renderMetrics(now: Date = new Date()): Promise<{ contentType: string; body: string }> {
  const workers = await refreshQueueGauges(now);
  const { registry } = webMetrics();
  const own = await registry.metrics();
  return { contentType: registry.contentType, body: workers ? `${own}\n${workers}` : own };
}
