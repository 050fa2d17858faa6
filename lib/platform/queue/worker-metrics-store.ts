import "server-only";
import type { Redis } from "ioredis";
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue, type Registry } from "prom-client";
import { readLiveWorkerNames } from "@/lib/platform/queue/worker-heartbeat";

/** Each scoring worker's metrics as prom-client JSON: a hash, field "<host>:<pid>" (the heartbeat's name). */
const WORKER_METRICS_KEY = "irc:worker-metrics";

type MetricJson = MetricObjectWithValues<MetricValue<string>>;

/** Called with every heartbeat: this worker's current figures replace its previous ones. */
export async function publishWorkerMetrics(redis: Redis, workerName: string, registry: Registry): Promise<void> {
  const metrics = await registry.getMetricsAsJSON();
  await redis.hset(WORKER_METRICS_KEY, workerName, JSON.stringify(metrics));
}

export async function forgetWorkerMetrics(redis: Redis, workerName: string): Promise<void> {
  await redis.hdel(WORKER_METRICS_KEY, workerName);
}

/** One worker's series, each labelled with the worker's name, so no two workers' series merge. */
function labelled(metrics: MetricJson[], worker: string): MetricJson[] {
  return metrics.map((metric) => ({
    ...metric,
    // Every series is distinct by its worker label: pass each through ("omit" would drop some of prom-client's defaults).
    aggregator: "sum",
    values: metric.values.map((value) => ({ ...value, labels: { ...value.labels, worker } })),
  }));
}

/**
 * The Prometheus text of every live worker's metrics (heartbeat at most 30 s
 * old). A worker that stopped stops appearing, as a scrape target would; the
 * entries of workers no longer alive are deleted.
 */
export async function renderWorkerMetrics(redis: Redis, now: Date = new Date()): Promise<string> {
  const alive = new Set(await readLiveWorkerNames(redis, now));
  const stored = await redis.hgetall(WORKER_METRICS_KEY);
  const gone = Object.keys(stored).filter((name) => !alive.has(name));
  if (gone.length > 0) await redis.hdel(WORKER_METRICS_KEY, ...gone);
  const perWorker = Object.entries(stored)
    .filter(([name]) => alive.has(name))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, text]) => labelled(JSON.parse(text) as MetricJson[], name));
  if (perWorker.length === 0) return "";
  return AggregatorRegistry.aggregate(perWorker).metrics();
}
