import { db } from "@/lib/platform/db";
import type { SubmissionStatus } from "@/lib/platform/generated/prisma";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import type { WorkerProcess } from "./workers";

export type WaitOptions = {
  timeoutMs?: number;
  intervalMs?: number;
  /** Workers whose recent output goes into the failure message. */
  workers?: readonly WorkerProcess[];
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function workerLogs(workers: readonly WorkerProcess[] | undefined): string {
  if (!workers || workers.length === 0) return "";
  return `\nrecent worker output:\n${workers.map((worker) => worker.logs()).join("\n")}`;
}

/** Polls `probe` until it returns a value other than undefined; fails with `describe()` after the timeout. */
export async function waitFor<T>(probe: () => Promise<T | undefined>, describe: () => Promise<string> | string, options: WaitOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms: ${await describe()}${workerLogs(options.workers)}`);
    }
    await sleep(options.intervalMs ?? 100);
  }
}

async function describeSubmissions(ids: readonly string[]): Promise<string> {
  const rows = await db.submission.findMany({
    where: { id: { in: [...ids] } },
    select: { id: true, status: true, attempts: true, failureKind: true, failureReason: true, split: true, track: true, isBaseline: true },
  });
  return rows
    .map((row) => `  ${row.id} ${row.split}/${row.track}${row.isBaseline ? " baseline" : ""}: ${row.status}, ${row.attempts} attempt(s)${row.failureKind ? `, ${row.failureKind}: ${row.failureReason}` : ""}`)
    .join("\n");
}

/**
 * Waits until the wall clock has passed `epochMs`: for a test whose assertion is a bound in time
 * ("fresh within a second of the publish"), where polling the outcome would accept any delay.
 */
export async function waitUntilClockPasses(epochMs: number): Promise<void> {
  await waitFor(async () => (Date.now() > epochMs ? true : undefined), () => `the clock did not pass ${epochMs}`, { intervalMs: 5 });
}

/** Waits until the submission has one of `statuses`; the failure message shows where it is stuck. */
export async function waitForStatus(submissionId: string, statuses: SubmissionStatus | readonly SubmissionStatus[], options: WaitOptions = {}) {
  const wanted: readonly SubmissionStatus[] = typeof statuses === "string" ? [statuses] : statuses;
  return waitFor(
    async () => {
      const row = await db.submission.findUnique({ where: { id: submissionId } });
      if (!row) throw new Error(`submission ${submissionId} does not exist`);
      return wanted.includes(row.status) ? row : undefined;
    },
    async () => `submission never reached ${wanted.join(" or ")}:\n${await describeSubmissions([submissionId])}`,
    options,
  );
}

/** Waits until every one of the submissions is SCORED; fails at once when one ends FAILED. */
export async function waitForAllScored(submissionIds: readonly string[], options: WaitOptions = {}): Promise<void> {
  await waitFor(
    async () => {
      const rows = await db.submission.findMany({ where: { id: { in: [...submissionIds] } }, select: { id: true, status: true, failureReason: true } });
      const failed = rows.find((row) => row.status === "FAILED");
      if (failed) throw new Error(`submission ${failed.id} FAILED: ${failed.failureReason}${workerLogs(options.workers)}`);
      return rows.length === submissionIds.length && rows.every((row) => row.status === "SCORED") ? true : undefined;
    },
    async () => `not every submission was SCORED:\n${await describeSubmissions(submissionIds)}`,
    options,
  );
}

/**
 * Waits until no scoring job waits or runs. A submission is SCORED a moment
 * before its job ends (the comparisons are refreshed after the score is
 * stored), so checks of comparison rows wait for this first.
 */
export async function waitForQueueIdle(options: WaitOptions = {}): Promise<void> {
  const queue = getScoringQueue();
  await waitFor(
    async () => {
      const counts = await queue.getJobCounts("waiting", "active", "delayed", "prioritized", "waiting-children");
      return Object.values(counts).every((count) => count === 0) ? true : undefined;
    },
    async () => `the scoring queue did not drain: ${JSON.stringify(await queue.getJobCounts())}`,
    options,
  );
}

/** waitForAllScored, then waitForQueueIdle: every job, comparisons included, is done. */
export async function waitForAllSettled(submissionIds: readonly string[], options: WaitOptions = {}): Promise<void> {
  await waitForAllScored(submissionIds, options);
  await waitForQueueIdle(options);
}
