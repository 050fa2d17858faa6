import "server-only";
import os from "node:os";
import { Worker, type Job } from "bullmq";
import { db } from "@/lib/platform/db";
import { getEnv } from "@/lib/platform/env";
import { logger as rootLogger, toError } from "@/lib/platform/logger";
import { createWorkerMetrics } from "@/lib/platform/metrics/worker-metrics";
import { forgetWorkerMetrics, publishWorkerMetrics } from "@/lib/platform/queue/worker-metrics-store";
import { createRedisConnection, getSharedRedis, logConnectionErrors } from "@/lib/platform/redis";
import { sweepOrphans } from "@/lib/platform/files/sweep-orphans";
import { reconcileScoringQueue } from "@/lib/domain/scoring/reconcile-queue";
import { closeScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { HEARTBEAT_INTERVAL_MS, forgetWorkerHeartbeat, recordWorkerHeartbeat } from "@/lib/platform/queue/worker-heartbeat";
import { workerTiming } from "@/lib/core/submissions/worker-timing";
import { scoringJob, type ScoringJob } from "@/lib/platform/queue/scoring-job";
import { scoreSubmissionJob } from "@/lib/domain/scoring/score-submission-job";

/** How often a worker removes orphan files (lib/platform/files/sweep-orphans.ts); every worker may, the sweep is idempotent. */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

const logger = rootLogger.child({ service: "worker" });
const metrics = createWorkerMetrics();

/** One job, timed and counted by outcome; a failed outcome is thrown back to BullMQ (which retries or fails the job). */
async function handleJob(job: Job<ScoringJob>): Promise<string> {
  const stopTimer = metrics.jobDuration.startTimer();
  const { outcome, result, error } = await scoreSubmissionJob(job);
  stopTimer({ outcome });
  metrics.jobs.inc({ outcome });
  if (error !== undefined) throw error;
  return result ?? outcome;
}

/**
 * The scoring worker process: takes scoring jobs from BullMQ (concurrency
 * WORKER_CONCURRENCY), re-queues submissions whose job was lost, sweeps orphan
 * files, sends a heartbeat with its metrics, and on SIGTERM/SIGINT finishes
 * its current jobs before it exits.
 */
// eslint-disable-next-line max-lines-per-function -- start and graceful shutdown of one process read best together (BullMQ's pattern)
export async function runScoringWorker(): Promise<void> {
  let env;
  try {
    env = getEnv();
  } catch (error) {
    // getEnv's message names every bad variable.
    logger.fatal(toError(error).message);
    process.exit(2);
  }
  const connection = createRedisConnection({ forWorker: true });
  const timing = workerTiming(env.WORKER_LOCK_MS);
  const worker = new Worker<ScoringJob, string>(scoringJob.queue, handleJob, {
    connection,
    concurrency: env.WORKER_CONCURRENCY,
    lockDuration: timing.lockDuration,
    stalledInterval: timing.stalledInterval,
    maxStalledCount: 3,
  });
  // BullMQ's "error" is emitted for every failed reconnect: one line per 30 s, not a stack per attempt.
  worker.on("error", logConnectionErrors("worker"));
  worker.on("failed", (job, error) => logger.warn({ jobId: job?.id, submissionId: job?.data.submissionId, reason: error.message }, `job ${job?.id ?? "?"} failed`));

  let isClosing = false;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  // One loop that awaits each run: a slow reconcile (Redis coming back, say) cannot overlap the next.
  let lastSweepAt = 0;
  const reconcileLoop = async () => {
    while (!isClosing) {
      try {
        const requeued = await reconcileScoringQueue();
        if (requeued > 0) logger.info({ requeued }, `re-queued ${requeued} submission(s) without a live job`);
      } catch (error) {
        logger.warn({ err: toError(error) }, "reconcile failed");
      }
      if (Date.now() - lastSweepAt >= SWEEP_INTERVAL_MS) {
        lastSweepAt = Date.now();
        try {
          const swept = await sweepOrphans();
          if (swept.stagedFiles + swept.storedFiles > 0) logger.info(swept, `swept ${swept.storedFiles} unreferenced stored file(s), ${swept.stagedFiles} old staged file(s)`);
        } catch (error) {
          logger.warn({ err: toError(error) }, "sweep failed");
        }
      }
      if (!isClosing) await pause(env.WORKER_RECONCILE_MS);
    }
  };
  const workerName = `${os.hostname()}:${process.pid}`;
  const reportHeartbeatError = logConnectionErrors("worker heartbeat");
  const beat = () => {
    recordWorkerHeartbeat(getSharedRedis(), workerName)
      .then(() => publishWorkerMetrics(getSharedRedis(), workerName, metrics.registry))
      .catch((error: unknown) => reportHeartbeatError(toError(error)));
  };
  beat();
  const heartbeat = setInterval(beat, HEARTBEAT_INTERVAL_MS);
  const reconciling = reconcileLoop();

  const shutdown = async (signal: string) => {
    if (isClosing) return;
    isClosing = true;
    logger.info({ signal }, `${signal}: finishing current jobs`);
    clearInterval(heartbeat);
    wake?.();
    await reconciling;
    await worker.close();
    await closeScoringQueue();
    await forgetWorkerHeartbeat(getSharedRedis(), workerName).catch(() => undefined);
    await forgetWorkerMetrics(getSharedRedis(), workerName).catch(() => undefined);
    await connection.quit().catch(() => undefined);
    await getSharedRedis().quit().catch(() => undefined);
    await db.$disconnect();
    logger.info("closed");
    logger.flush();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  // A fault outside any job is logged; the process exits and its supervisor restarts it (the job's lock expires and another worker takes it).
  process.on("unhandledRejection", (reason) => logger.error({ err: toError(reason) }, "unhandled rejection"));
  process.on("uncaughtException", (error) => {
    logger.fatal({ err: error }, "uncaught exception");
    logger.flush();
    process.exit(1);
  });
  logger.info(
    { queue: scoringJob.queue, concurrency: env.WORKER_CONCURRENCY, worker: workerName, ...timing },
    `ready: queue "${scoringJob.queue}", concurrency ${env.WORKER_CONCURRENCY}`,
  );
}

