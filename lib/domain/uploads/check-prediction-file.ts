import type { ProblemDetail } from "@/lib/core/errors";
import { validatePredictionFile } from "@/lib/platform/io/validate-prediction-file";
import { computeAnswerDigests, type AnswerIndex } from "@/lib/core/integrity/answer-digests";
import type { KbIndex } from "@/lib/core/scoring/gold";
import type { KbQids } from "@/lib/core/scoring/validate-predictions";
import type { Track } from "@/lib/core/scoring/tracks";

type PredictionFileCheckInput = {
  path: string;
  sampleIds: readonly string[];
  kbQids: KbQids;
  /** The KB as the unified view reads answers (answer-digests.ts), for the answer digests. */
  answerIndex: AnswerIndex;
  track?: Track;
  split: "dev" | "test";
};

export type PredictionFileCheck =
  | { ok: true; track: Track; answerDigests: Uint8Array<ArrayBuffer> }
  | { ok: false; problems: ProblemDetail[]; problemCount: number };

/**
 * The CPU-bound half of pre-flight: the protocol's validation of every line
 * (section 4) and the answer digests of the publication guard (§12). No
 * database, no shared state, so it runs in a worker thread
 * (workers/preflight-thread.ts) and only its small result crosses back.
 */
export async function checkPredictionFile(input: PredictionFileCheckInput): Promise<PredictionFileCheck> {
  const validation = await validatePredictionFile(input.path, { sampleIds: input.sampleIds, kbQids: input.kbQids, track: input.track, split: input.split });
  if (!validation.ok) return { ok: false, problems: validation.problems, problemCount: validation.problemCount };
  return { ok: true, track: validation.track, answerDigests: computeAnswerDigests(input.sampleIds, validation, input.answerIndex) };
}

/** What lib/domain/uploads/preflight-pool.ts sends a pre-flight thread (workers/preflight-thread.ts), and its answer. */
export type PreflightTask = {
  taskId: number;
  path: string;
  referenceKey: string;
  /** Present the first time this thread sees `referenceKey`; the thread builds the KB's answer index from it. */
  reference?: { sampleIds: string[]; kb: KbIndex; trainDevQids: string[] };
  track?: Track;
  split: "dev" | "test";
};

export type PreflightReply = { taskId: number; result: PredictionFileCheck } | { taskId: number; error: string };
