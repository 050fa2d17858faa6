import "server-only";
import { db } from "@/lib/platform/db";
import { findStaleSubmissions } from "@/lib/domain/scoring/find-stale-submissions";
import { enqueueScoringMany } from "@/lib/platform/queue/scoring-queue";

/** Rows per status update: a bounded IN list. */
const IDS_PER_UPDATE = 1_000;

type QueueStaleScoresResult = {
  /** Submissions queued by this call. */
  queued: string[];
  /** Stale but already QUEUED or SCORING: left to the job that is pending (the reconciler re-queues lost ones). */
  pending: string[];
  /** Stale, but the stored file failed validation under the current rules: re-scoring cannot help. */
  invalid: string[];
};

/**
 * Queues every submission whose stored score is stale (scorer version or gold
 * checksum differs, protocol section 10), or with `includeCurrent` every
 * scored one, for the worker to re-score. Idempotent: a submission already
 * waiting for the worker is not queued again, so running it twice queues
 * nothing the second time, and a score once re-scored is no longer stale.
 * The status updates and the jobs go in bulk: a release's re-score is one
 * statement and a few Redis round trips per thousand submissions.
 */
export async function queueStaleScores(options: { includeCurrent?: boolean } = {}): Promise<QueueStaleScoresResult> {
  const result: QueueStaleScoresResult = { queued: [], pending: [], invalid: [] };
  const generation = Date.now();
  for (const submission of await findStaleSubmissions(options)) {
    if (submission.status === "QUEUED" || submission.status === "SCORING") {
      result.pending.push(submission.id);
      continue;
    }
    if (submission.status === "FAILED" && submission.failureKind === "INVALID") {
      result.invalid.push(submission.id);
      continue;
    }
    result.queued.push(submission.id);
  }
  for (let start = 0; start < result.queued.length; start += IDS_PER_UPDATE) {
    const ids = result.queued.slice(start, start + IDS_PER_UPDATE);
    await db.submission.updateMany({
      where: { id: { in: ids } },
      data: { status: "QUEUED", queuedAt: new Date(), failureKind: null, failureReason: null },
    });
    // If Redis is down the submissions stay QUEUED and the worker's reconciler queues them later.
    await enqueueScoringMany(ids, generation);
  }
  return result;
}
