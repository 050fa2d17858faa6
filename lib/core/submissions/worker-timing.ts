/**
 * BullMQ's stalled-job settings from WORKER_LOCK_MS. A worker renews its job
 * locks every half of the lock duration; when it dies, the lock expires at
 * most one lock duration later, and the next stalled-job check (every half of
 * the lock duration, run by any live worker) moves the job back to waiting.
 * So a killed worker's job is taken over within 1.5 lock durations: 30 s for
 * the default 20 s lock, under the 35 s the platform promises.
 */
type WorkerTiming = { lockDuration: number; stalledInterval: number; worstCaseTakeoverMs: number };

const MIN_STALLED_INTERVAL_MS = 1_000;

export function workerTiming(lockMs: number): WorkerTiming {
  const stalledInterval = Math.max(MIN_STALLED_INTERVAL_MS, Math.floor(lockMs / 2));
  return { lockDuration: lockMs, stalledInterval, worstCaseTakeoverMs: lockMs + stalledInterval };
}
