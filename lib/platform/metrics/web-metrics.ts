import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * The web process's metrics, in one registry held on globalThis: Next.js may
 * load this module more than once (instrumentation, route handlers), and
 * every copy must count into the same series.
 */
type WebMetrics = {
  registry: Registry;
  httpRequestDuration: Histogram<"method" | "route" | "status">;
  uploadBytes: Histogram<"split" | "track">;
  uploadsRefused: Counter<"reason">;
  queueJobs: Gauge<"state">;
  redisUp: Gauge;
  workersAlive: Gauge;
  workerHeartbeatAge: Gauge;
};

const KEY = Symbol.for("irc-bench.web-metrics");
type WithMetrics = typeof globalThis & { [KEY]?: WebMetrics };

const MIB = 1024 * 1024;

function createWebMetrics(): WebMetrics {
  const registry = new Registry();
  // Process figures (CPU, memory, event-loop lag) under their own prefix, so they never collide with a worker's.
  collectDefaultMetrics({ register: registry, prefix: "irc_web_" });
  const registers = [registry];
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: "irc_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its response, by route pattern (Next.js's, such as /submissions/[id]), method and status (\"aborted\" when the client went away).",
      labelNames: ["method", "route", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    uploadBytes: new Histogram({
      name: "irc_upload_bytes",
      help: "Size of each accepted prediction file, by split and track.",
      labelNames: ["split", "track"],
      buckets: [16 * 1024, 128 * 1024, MIB, 4 * MIB, 16 * MIB, 32 * MIB, 64 * MIB, 256 * MIB],
      registers,
    }),
    uploadsRefused: new Counter({
      name: "irc_uploads_refused_total",
      help: "Uploads refused after they were read because scoring could not be queued (reason=queue_unavailable); nothing was kept or charged.",
      labelNames: ["reason"],
      registers,
    }),
    queueJobs: new Gauge({
      name: "irc_scoring_queue_jobs",
      help: "Jobs in the scoring queue by state, read from Redis when /metrics is scraped (absent while Redis is unreachable).",
      labelNames: ["state"],
      registers,
    }),
    redisUp: new Gauge({ name: "irc_redis_up", help: "1 when this web process reached Redis while serving /metrics, else 0.", registers }),
    workersAlive: new Gauge({ name: "irc_scoring_workers_alive", help: "Scoring workers whose heartbeat is at most 30 s old.", registers }),
    workerHeartbeatAge: new Gauge({
      name: "irc_scoring_worker_heartbeat_age_seconds",
      help: "Age of the newest heartbeat of any scoring worker (absent when none was ever seen).",
      registers,
    }),
  };
}

export function webMetrics(): WebMetrics {
  const root = globalThis as WithMetrics;
  root[KEY] ??= createWebMetrics();
  return root[KEY];
}
