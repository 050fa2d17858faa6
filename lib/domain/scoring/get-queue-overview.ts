import "server-only";
import type { Job } from "bullmq";
import { requireMaintainer, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import type { ScoringJob } from "@/lib/platform/queue/scoring-job";
import { getScoringQueue, submissionIdOfJobId } from "@/lib/platform/queue/scoring-queue";
import { listWorkerHeartbeats } from "@/lib/platform/queue/worker-heartbeat";

const LISTED = 100;
const FAILED_LISTED = 50;
const QUEUE_TIMEOUT_MS = 3_000;

type QueueJobState = "waiting" | "delayed" | "active";

type SubmissionSummary = {
  submissionId: string;
  ownerName: string;
  ownerEmail: string | null;
  status: "QUEUED" | "SCORING" | "SCORED" | "FAILED" | null;
  split: string | null;
  track: string | null;
  /** Started scoring attempts the platform counted (SCORING_MAX_ATTEMPTS bounds them). */
  attempts: number | null;
};

type QueueJobRow = SubmissionSummary & {
  jobId: string;
  state: QueueJobState;
  /** When the job was added. */
  queuedAt: string;
  /** Attempts BullMQ made of this job (retries after an internal error). */
  jobAttempts: number;
  lastError: string | null;
};

type FailedSubmissionRow = SubmissionSummary & {
  failedAt: string | null;
  failureKind: "INVALID" | "INTERNAL" | null;
  /** What the owner reads, and the last job's own error when Redis still has it. */
  failureReason: string | null;
  lastJobError: string | null;
  lastJobId: string | null;
};

export type QueueOverview = {
  checkedAt: string;
  /** Null when Redis could not be read: the jobs and workers are then unknown, failed submissions still listed. */
  queueProblem: string | null;
  counts: { waiting: number; active: number; delayed: number; failed: number };
  /** Paused (BullMQ queue.pause()): workers take no new job until it is resumed. */
  isPaused: boolean;
  jobs: QueueJobRow[];
  failed: FailedSubmissionRow[];
  workers: { name: string; lastHeartbeatAt: string; isAlive: boolean }[];
};

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("Redis did not answer")), QUEUE_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function summaries(ids: readonly string[]): Promise<Map<string, SubmissionSummary>> {
  const rows = await db.submission.findMany({
    where: { id: { in: [...new Set(ids)] } },
    select: { id: true, status: true, split: true, track: true, attempts: true, user: { select: { displayName: true, email: true } } },
  });
  return new Map(
    rows.map((row) => [
      row.id,
      { submissionId: row.id, ownerName: row.user.displayName, ownerEmail: row.user.email, status: row.status, split: row.split, track: row.track, attempts: row.attempts },
    ]),
  );
}

function unknownSubmission(submissionId: string): SubmissionSummary {
  return { submissionId, ownerName: "(no such submission)", ownerEmail: null, status: null, split: null, track: null, attempts: null };
}

type StatedJob = { job: Job<ScoringJob>; state: QueueJobState };

type QueueRead = { counts: QueueOverview["counts"]; isPaused: boolean; jobs: StatedJob[]; failedJobs: Job<ScoringJob>[]; workers: QueueOverview["workers"] };

async function readQueue(): Promise<QueueRead> {
  const queue = getScoringQueue();
  const [counts, isPaused, active, waiting, delayed, failedJobs, beats] = await withTimeout(
    Promise.all([
      queue.getJobCounts("waiting", "prioritized", "active", "delayed", "failed"),
      queue.isPaused(),
      queue.getJobs(["active"], 0, LISTED - 1, true),
      queue.getJobs(["prioritized", "waiting"], 0, LISTED - 1, true),
      queue.getJobs(["delayed"], 0, LISTED - 1, true),
      queue.getJobs(["failed"], 0, 499, false),
      listWorkerHeartbeats(getSharedRedis()),
    ]),
  );
  const stated = (jobs: (Job<ScoringJob> | undefined)[], state: QueueJobState) => jobs.flatMap((job) => (job ? [{ job, state }] : []));
  return {
    counts: {
      waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      failed: counts.failed ?? 0,
    },
    isPaused,
    jobs: [...stated(active, "active"), ...stated(waiting, "waiting"), ...stated(delayed, "delayed")],
    failedJobs: failedJobs.filter((job): job is Job<ScoringJob> => job !== undefined),
    workers: beats.map((beat) => ({ name: beat.name, lastHeartbeatAt: beat.lastHeartbeatAt.toISOString(), isAlive: beat.isAlive })),
  };
}

/**
 * What /admin/queue shows a maintainer: running, waiting and delayed jobs
 * with their submission and owner, the failed submissions (newest first)
 * with the last error, and every worker heard from in the last day.
 */
export async function getQueueOverview(actor: Actor, now: Date = new Date()): Promise<QueueOverview> {
  requireMaintainer(actor);
  const queue = await readQueue().catch(() => null);
  const failedRows = await db.submission.findMany({
    where: { status: "FAILED" },
    orderBy: [{ finishedAt: { sort: "desc", nulls: "last" } }, { createdAt: "desc" }],
    take: FAILED_LISTED,
    select: { id: true, finishedAt: true, failureKind: true, failureReason: true },
  });
  const jobs = queue?.jobs ?? [];
  const known = await summaries([...jobs.map(({ job }) => job.data.submissionId), ...failedRows.map((row) => row.id)]);
  // The newest failed job of each submission (the list is newest first).
  const lastFailedJob = new Map<string, Job<ScoringJob>>();
  for (const job of queue?.failedJobs ?? []) {
    const submissionId = job.id ? submissionIdOfJobId(job.id) : job.data.submissionId;
    if (!lastFailedJob.has(submissionId)) lastFailedJob.set(submissionId, job);
  }
  return {
    checkedAt: now.toISOString(),
    queueProblem: queue ? null : "Redis could not be read: the queue's jobs and the workers are unknown right now.",
    counts: queue?.counts ?? { waiting: 0, active: 0, delayed: 0, failed: 0 },
    isPaused: queue?.isPaused ?? false,
    jobs: jobs.map(({ job, state }) => ({
      ...(known.get(job.data.submissionId) ?? unknownSubmission(job.data.submissionId)),
      jobId: job.id ?? "",
      state,
      queuedAt: new Date(job.timestamp).toISOString(),
      jobAttempts: job.attemptsMade,
      lastError: job.failedReason || null,
    })),
    failed: failedRows.map((row) => {
      const job = lastFailedJob.get(row.id);
      return {
        ...(known.get(row.id) ?? unknownSubmission(row.id)),
        failedAt: row.finishedAt?.toISOString() ?? null,
        failureKind: row.failureKind,
        failureReason: row.failureReason,
        lastJobError: job?.failedReason || null,
        lastJobId: job?.id ?? null,
      };
    }),
    workers: queue?.workers ?? [],
  };
}
