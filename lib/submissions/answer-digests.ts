import { createHash } from "node:crypto";
import { norm } from "@/lib/scoring/normalize";
import type { TrackPredictions } from "@/lib/scoring/track-predictions";
import { couldOpenAnswerScore, scorableRanking, type ScorableAnswers } from "@/lib/submissions/scorable-answers";

/**
 * Protocol §12: a test file that differs from an earlier one of the same
 * account and track in fewer than max(25, 1%) samples is refused, since the
 * difference between two scores would read those samples' answers. Files are
 * compared by what could score, not by bytes: one 8-byte digest per sample, in
 * gold order, of the sample's answer key. An answer that no test candidate
 * could make score (scorable-answers.ts) has the key "", the key of no answer,
 * so replacing one never-right string by another is no difference: a file
 * that changes one real answer and every nonsense answer still differs in one
 * sample. Pure: no database, no files.
 */
export const DIGEST_BYTES = 8;
export const MIN_DIFFERING_SAMPLES = 25;
/**
 * How answer keys are made. 1: norm() of a prediction, a ranking's QIDs in
 * order. 2: only what could score (below). 3: of a ranking, only its first
 * ten positions (scorable-answers.ts). Digests of another version are
 * never compared with these; they are recomputed from the stored file.
 */
export const ANSWER_KEY_VERSION = 3;

/**
 * The answer of one sample as far as any test gold could score it: norm() of
 * an open-world prediction that meets a tier for some candidate (two strings
 * that differ only by case or spacing score alike), the scorable entries of a
 * closed-world ranking as "position:QID"; "" for everything else.
 */
export function answerKey(prediction: string | readonly string[] | undefined, scorable: ScorableAnswers): string {
  if (prediction === undefined) return "";
  if (typeof prediction === "string") {
    const normalized = norm(prediction);
    return couldOpenAnswerScore(normalized, scorable) ? normalized : "";
  }
  // QIDs hold no spaces or colons: "1:Q1 2:Q23" cannot be read two ways.
  return scorableRanking(prediction, scorable).join(" ");
}

function digestOf(key: string): Buffer {
  return createHash("sha256").update(key, "utf8").digest().subarray(0, DIGEST_BYTES);
}

/** One digest per sample of `sampleIds` (gold order), concatenated. */
export function computeAnswerDigests(sampleIds: readonly string[], predictions: TrackPredictions, scorable: ScorableAnswers): Uint8Array<ArrayBuffer> {
  const digests = new Uint8Array(sampleIds.length * DIGEST_BYTES);
  sampleIds.forEach((sampleId, index) => {
    digests.set(digestOf(answerKey(predictions.predictions.get(sampleId), scorable)), index * DIGEST_BYTES);
  });
  return digests;
}

/**
 * How many samples two digest strings answer differently. Digests of different
 * lengths (never for one split of one release) count every sample past the
 * shorter one as different.
 */
export function countDifferingSamples(first: Uint8Array, second: Uint8Array): number {
  const firstCount = Math.floor(first.length / DIGEST_BYTES);
  const secondCount = Math.floor(second.length / DIGEST_BYTES);
  const common = Math.min(firstCount, secondCount);
  let differing = Math.max(firstCount, secondCount) - common;
  for (let sample = 0; sample < common; sample += 1) {
    const start = sample * DIGEST_BYTES;
    for (let offset = 0; offset < DIGEST_BYTES; offset += 1) {
      if (first[start + offset] !== second[start + offset]) {
        differing += 1;
        break;
      }
    }
  }
  return differing;
}

/** max(25, ceil(1% of the split's samples)): the fewest samples a new test file must change. */
export function minimumDifferingSamples(sampleCount: number): number {
  return Math.max(MIN_DIFFERING_SAMPLES, Math.ceil(sampleCount / 100));
}
