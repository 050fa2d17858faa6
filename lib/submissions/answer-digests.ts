import { hash } from "node:crypto";
import { norm } from "@/lib/scoring/normalize";
import type { TrackPredictions } from "@/lib/scoring/track-predictions";
import { metricKeysOf, type MetricKey, type Track } from "@/lib/scoring/tracks";
import { closedOutcomeKeys, openOutcomeKeys, type ScorableAnswers } from "@/lib/submissions/scorable-answers";

/**
 * Protocol §12: a test file that differs from an earlier one of the same
 * account and track in fewer than max(25, 1%) samples is refused, since the
 * difference between two scores would read those samples' answers. Files are
 * compared by what could score, metric by metric: per sample and per metric
 * of the track, one 8-byte digest of the answer's outcome set on that metric
 * (scorable-answers.ts: the test candidates that, as gold, would make it
 * count). An answer no candidate could make count has the empty set, the set
 * of no answer, so replacing one never-right string by another is no
 * difference; and a file must move every number the owner sees by enough
 * samples, or by none: padding that changes only MRR (places 2 and 3
 * swapped) does not let one changed guess be read off hit@1. Pure: no
 * database, no files.
 */
export const DIGEST_BYTES = 8;
export const MIN_DIFFERING_SAMPLES = 25;
/**
 * How answer digests are made. 1: one per sample, norm() of a prediction or a
 * ranking's QIDs in order. 2: one per sample, only what could score. 3: the
 * same, a ranking's first ten places only. 4: one per sample and metric, of
 * the outcome set (above). Digests of another version are never compared with
 * these; they are recomputed from the stored file.
 */
export const ANSWER_KEY_VERSION = 4;

/** The answer of one sample as each metric of its track could score it, in the order of metricKeysOf(track). */
export function answerKeys(prediction: string | readonly string[] | undefined, track: Track, scorable: ScorableAnswers): string[] {
  if (prediction === undefined) return metricKeysOf(track).map(() => "");
  if (typeof prediction === "string") return openOutcomeKeys(norm(prediction), scorable);
  return closedOutcomeKeys(prediction, scorable);
}

function digestOf(key: string): Buffer {
  // One-shot hash: half the cost of a createHash per key, and a closed file has six keys a sample.
  return hash("sha256", key, "buffer").subarray(0, DIGEST_BYTES);
}

/**
 * Per sample of `sampleIds` (gold order), one digest per metric of the track
 * (metricKeysOf order), concatenated: sample 0's metrics, then sample 1's...
 */
export function computeAnswerDigests(sampleIds: readonly string[], predictions: TrackPredictions, scorable: ScorableAnswers): Uint8Array<ArrayBuffer> {
  const metricCount = metricKeysOf(predictions.track).length;
  const digests = new Uint8Array(sampleIds.length * metricCount * DIGEST_BYTES);
  // A file often repeats an answer (the same nonsense, the same top entity) and a key (none): each is computed once.
  const keysOf = new Map<string, string[]>();
  const digestsOf = new Map<string, Buffer>();
  sampleIds.forEach((sampleId, sample) => {
    const prediction = predictions.predictions.get(sampleId);
    const memo = typeof prediction === "string" ? prediction : prediction?.join(" ");
    let keys = memo === undefined ? undefined : keysOf.get(memo);
    if (keys === undefined) {
      keys = answerKeys(prediction, predictions.track, scorable);
      if (memo !== undefined) keysOf.set(memo, keys);
    }
    keys.forEach((key, metric) => {
      let digest = digestsOf.get(key);
      if (digest === undefined) {
        digest = digestOf(key);
        digestsOf.set(key, digest);
      }
      digests.set(digest, (sample * metricCount + metric) * DIGEST_BYTES);
    });
  });
  return digests;
}

export type DigestComparison = {
  /** Samples whose answer differs on at least one metric. */
  differing: number;
  /** Per metric (metricKeysOf order): samples whose answer differs on it. */
  differingByMetric: number[];
};

/**
 * How two files' digests (of one track) differ. Digests of different lengths
 * (never for one split of one release) count every sample past the shorter
 * one as different on every metric.
 */
export function compareAnswerDigests(first: Uint8Array, second: Uint8Array, track: Track): DigestComparison {
  const metricCount = metricKeysOf(track).length;
  const stride = metricCount * DIGEST_BYTES;
  const firstCount = Math.floor(first.length / stride);
  const secondCount = Math.floor(second.length / stride);
  const common = Math.min(firstCount, secondCount);
  const extra = Math.max(firstCount, secondCount) - common;
  const differingByMetric = Array.from({ length: metricCount }, () => extra);
  let differing = extra;
  for (let sample = 0; sample < common; sample += 1) {
    let isDifferent = false;
    for (let metric = 0; metric < metricCount; metric += 1) {
      const start = sample * stride + metric * DIGEST_BYTES;
      if (!sameBytes(first, second, start)) {
        differingByMetric[metric] = (differingByMetric[metric] ?? 0) + 1;
        isDifferent = true;
      }
    }
    if (isDifferent) differing += 1;
  }
  return { differing, differingByMetric };
}

function sameBytes(first: Uint8Array, second: Uint8Array, start: number): boolean {
  for (let offset = 0; offset < DIGEST_BYTES; offset += 1) {
    if (first[start + offset] !== second[start + offset]) return false;
  }
  return true;
}

/** max(25, ceil(1% of the split's samples)): the fewest samples a new test file must change. */
export function minimumDifferingSamples(sampleCount: number): number {
  return Math.max(MIN_DIFFERING_SAMPLES, Math.ceil(sampleCount / 100));
}

/**
 * The §12 verdict on a comparison: null when the new file may be scored, or
 * what is too close: the whole file (fewer than `required` samples differ on
 * any metric), or one metric that moves by some samples but fewer than
 * `required` (a metric that does not move at all reads nothing new).
 */
export function tooCloseOf(comparison: DigestComparison, track: Track, required: number): { metric: MetricKey | null; differing: number } | null {
  if (comparison.differing < required) return { metric: null, differing: comparison.differing };
  const keys = metricKeysOf(track);
  for (const [index, differing] of comparison.differingByMetric.entries()) {
    if (differing > 0 && differing < required) return { metric: keys[index] ?? null, differing };
  }
  return null;
}
