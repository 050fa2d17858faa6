/**
 * The scoring worker: its own process (npm run worker). Takes { submissionId }
 * jobs from BullMQ and scores them with lib/submissions/process-submission.ts.
 * Run as many as you like, on as many machines, against one Redis and one
 * PostgreSQL. SIGTERM/SIGINT finish the current jobs, then exit.
 */
import { UnrecoverableError, Worker, type Job } from "bullmq";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { createRedisConnection, getSharedRedis } from "@/lib/redis";
import {
  InvalidSubmissionError,
  markSubmissionFailed,
  markSubmissionRetrying,
  processSubmission,
} from "@/lib/submissions/process-submission";
import os from "node:os";
import { sweepOrphans } from "@/lib/files/sweep-orphans";
import { reconcileScoringQueue } from "@/lib/submissions/reconcile-queue";
import { SCORING_QUEUE, closeScoringQueue, scoringJobSchema, type ScoringJob } from "@/lib/submissions/scoring-queue";
import { HEARTBEAT_INTERVAL_MS, forgetWorkerHeartbeat, recordWorkerHeartbeat } from "@/lib/submissions/worker-heartbeat";

/** How often a worker removes orphan files (lib/files/sweep-orphans.ts); every worker may, the sweep is idempotent. */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

function log(message: string): void {
  console.log(`[worker ${process.pid}] ${new Date().toISOString()} ${message}`);
}

async function handleJob(job: Job<ScoringJob>): Promise<string> {
  const parsed = scoringJobSchema.safeParse(job.data);
  if (!parsed.success) throw new UnrecoverableError(`malformed job ${job.id}: ${parsed.error.message}`);
  const { submissionId } = parsed.data;
  const maxAttempts = job.opts.attempts ?? 1;
  try {
    const outcome = await processSubmission(submissionId);
    log(`${submissionId}: ${outcome}`);
    return outcome;
  } catch (error) {
    if (error instanceof InvalidSubmissionError) {
      await markSubmissionFailed(submissionId, "INVALID", error.message);
      throw new UnrecoverableError(error.message);
    }
    const attempt = job.attemptsMade + 1;
    log(`${submissionId}: attempt ${attempt}/${maxAttempts} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    if (attempt >= maxAttempts) {
      await markSubmissionFailed(
        submissionId,
        "INTERNAL",
        `An internal error stopped scoring after ${maxAttempts} attempts. This is our fault, not your file's; maintainers can see it and re-score it, and it did not cost you more quota.`,
      ).catch(() => undefined);
    } else {
      await markSubmissionRetrying(submissionId, attempt, maxAttempts).catch(() => undefined);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  let env;
  try {
    env = getEnv();
  } catch (error) {
    // getEnv's message names every bad variable.
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  }
  const connection = createRedisConnection({ forWorker: true });
  const worker = new Worker<ScoringJob, string>(SCORING_QUEUE, handleJob, {
    connection,
    concurrency: env.WORKER_CONCURRENCY,
    lockDuration: env.WORKER_LOCK_MS,
    stalledInterval: Math.max(1000, Math.floor(env.WORKER_LOCK_MS / 2)),
    maxStalledCount: 3,
  });
  worker.on("error", (error) => log(`worker error: ${error.message}`));
  worker.on("failed", (job, error) => log(`job ${job?.id ?? "?"} failed: ${error.message}`));

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
        if (requeued > 0) log(`re-queued ${requeued} submission(s) without a live job`);
      } catch (error) {
        log(`reconcile failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (Date.now() - lastSweepAt >= SWEEP_INTERVAL_MS) {
        lastSweepAt = Date.now();
        try {
          const swept = await sweepOrphans();
          if (swept.stagedFiles + swept.storedFiles > 0) log(`swept ${swept.storedFiles} unreferenced stored file(s), ${swept.stagedFiles} old staged file(s)`);
        } catch (error) {
          log(`sweep failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      if (!isClosing) await pause(env.WORKER_RECONCILE_MS);
    }
  };
  const workerName = `${os.hostname()}:${process.pid}`;
  const beat = () => {
    recordWorkerHeartbeat(getSharedRedis(), workerName).catch((error: unknown) => {
      log(`heartbeat failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  };
  beat();
  const heartbeat = setInterval(beat, HEARTBEAT_INTERVAL_MS);
  const reconciling = reconcileLoop();

  const shutdown = async (signal: string) => {
    if (isClosing) return;
    isClosing = true;
    log(`${signal}: finishing current jobs`);
    clearInterval(heartbeat);
    wake?.();
    await reconciling;
    await worker.close();
    await closeScoringQueue();
    await forgetWorkerHeartbeat(getSharedRedis(), workerName).catch(() => undefined);
    await connection.quit().catch(() => undefined);
    await getSharedRedis().quit().catch(() => undefined);
    await db.$disconnect();
    log("closed");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  // A fault outside any job is logged; the process exits and its supervisor restarts it (the job's lock expires and another worker takes it).
  process.on("unhandledRejection", (reason) => log(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`));
  process.on("uncaughtException", (error) => {
    log(`uncaught exception: ${error.stack ?? error.message}`);
    process.exit(1);
  });
  log(`ready: queue "${SCORING_QUEUE}", concurrency ${env.WORKER_CONCURRENCY}`);
}

void main();
