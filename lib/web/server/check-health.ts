import "server-only";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { HEARTBEAT_MAX_AGE_MS, readWorkerHeartbeats } from "@/lib/platform/queue/worker-heartbeat";
import { logger } from "@/lib/platform/logger";

const CHECK_TIMEOUT_MS = 2_000;

type CheckResult = { ok: boolean; latencyMs: number; problem?: string };
export type HealthReport = {
  status: "ok" | "degraded";
  checkedAt: string;
  database: CheckResult;
  redis: CheckResult;
  queue: CheckResult & { waiting?: number; active?: number; delayed?: number; failed?: number };
  workers: CheckResult & { alive?: number; lastHeartbeatAt?: string | null; lastHeartbeatAgeSeconds?: number | null };
  problems: string[];
};

class CheckTimeout extends Error {}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout()), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Runs one check; the problem is a fixed sentence (never a driver message, which may carry a host or a URL). */
async function check<T>(what: string, run: () => Promise<T>): Promise<{ result: CheckResult; value?: T }> {
  const startedAt = performance.now();
  try {
    const value = await withTimeout(run());
    return { result: { ok: true, latencyMs: Math.round(performance.now() - startedAt) }, value };
  } catch (error) {
    const problem = error instanceof CheckTimeout ? `${what} did not answer within ${CHECK_TIMEOUT_MS / 1000} s` : `${what} refused the request`;
    logger.warn(error instanceof CheckTimeout ? {} : { err: error }, `health: ${problem}`);
    return { result: { ok: false, latencyMs: Math.round(performance.now() - startedAt), problem } };
  }
}

/** What a maintainer needs to know first: can we reach PostgreSQL and Redis, how long is the queue, is any worker alive. */
export async function checkHealth(now: Date = new Date()): Promise<HealthReport> {
  const [database, redis, queue, heartbeats] = await Promise.all([
    check("PostgreSQL", () => db.$queryRaw`SELECT 1`),
    check("Redis", () => getSharedRedis().ping()),
    check("The scoring queue", () => getScoringQueue().getJobCounts("waiting", "active", "delayed", "failed", "prioritized")),
    check("Redis (worker heartbeats)", () => readWorkerHeartbeats(getSharedRedis(), now)),
  ]);
  const counts = queue.value;
  const beats = heartbeats.value;
  const ageSeconds = beats?.lastHeartbeatAt ? Math.round((now.getTime() - beats.lastHeartbeatAt.getTime()) / 1000) : null;
  let workersProblem = heartbeats.result.problem;
  if (beats && beats.workersAlive === 0) {
    workersProblem =
      ageSeconds === null
        ? "No scoring worker has sent a heartbeat to this Redis yet: start one with npm run worker."
        : `No scoring worker has sent a heartbeat for ${ageSeconds} s (limit ${HEARTBEAT_MAX_AGE_MS / 1000} s): uploads wait unscored until one runs (npm run worker).`;
  }
  const workers = {
    ...heartbeats.result,
    ok: heartbeats.result.ok && workersProblem === undefined,
    problem: workersProblem,
    alive: beats?.workersAlive,
    lastHeartbeatAt: beats ? (beats.lastHeartbeatAt?.toISOString() ?? null) : undefined,
    lastHeartbeatAgeSeconds: beats ? ageSeconds : undefined,
  };
  const queueReport = {
    ...queue.result,
    waiting: counts ? (counts.waiting ?? 0) + (counts.prioritized ?? 0) : undefined,
    active: counts?.active,
    delayed: counts?.delayed,
    failed: counts?.failed,
  };
  const problems = [database.result, redis.result, queueReport, workers].flatMap((result) => (result.problem ? [result.problem] : []));
  return {
    status: problems.length === 0 ? "ok" : "degraded",
    checkedAt: now.toISOString(),
    database: database.result,
    redis: redis.result,
    queue: queueReport,
    workers,
    problems,
  };
}
