import "server-only";
import type { JobsOptions } from "bullmq";
import { z } from "zod";
import type { JobOutcome } from "@/lib/platform/metrics/worker-metrics";

/**
 * The scoring job, defined once: its queue and name, the version and schema
 * of its payload, and its retry options (the handler is
 * lib/domain/scoring/score-submission-job.ts, which the worker process calls). The producer
 * (lib/platform/queue/scoring-queue.ts), the worker process
 * (lib/domain/scoring/run-scoring-worker.ts), the reconciler and /admin/queue all read
 * this object. Jobs carry the submission id only: never file contents or gold.
 */
const VERSION = 1;

const payloadSchema = z.object({
  submissionId: z.string().min(1).max(64),
  /** The payload's shape; jobs queued before it was written are version 1. */
  version: z.literal(VERSION).default(VERSION),
});

export type ScoringJob = z.input<typeof payloadSchema>;

export type JobResult = { outcome: JobOutcome; result?: string; error?: unknown };

export const scoringJob = {
  queue: "scoring",
  name: "score",
  version: VERSION,
  schema: payloadSchema,
  /** Infrastructure faults retry with exponential backoff; invalid files fail at once (UnrecoverableError). */
  options: {
    attempts: 5,
    backoff: { type: "exponential", delay: 2000 },
    removeOnComplete: { count: 1000 },
    removeOnFail: { count: 5000 },
  } satisfies JobsOptions,
  payload: (submissionId: string): ScoringJob => ({ submissionId, version: VERSION }),
} as const;
