import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** How a scoring job ended: the outcomes of processSubmission, or the failure paths of the worker. */
export type JobOutcome = "scored" | "already-scored" | "missing" | "invalid" | "retrying" | "failed";

/**
 * A scoring worker's own metrics. The worker pushes them to Redis with its
 * heartbeat (lib/platform/queue/worker-metrics-store.ts), and every web process's
 * /metrics shows every live worker's, labelled worker="<host>:<pid>": no
 * port to open per worker, and any number of them on any machines.
 */
type WorkerMetrics = {
  registry: Registry;
  jobDuration: Histogram<"outcome">;
  jobs: Counter<"outcome">;
};

export function createWorkerMetrics(): WorkerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "irc_worker_" });
  const registers = [registry];
  return {
    registry,
    jobDuration: new Histogram({
      name: "irc_scoring_job_duration_seconds",
      help: "Wall time of one scoring job in a worker, by outcome.",
      labelNames: ["outcome"],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    }),
    jobs: new Counter({
      name: "irc_scoring_jobs_total",
      help: "Scoring jobs a worker finished, by outcome (scored, already-scored, missing, invalid, retrying, failed).",
      labelNames: ["outcome"],
      registers,
    }),
  };
}
