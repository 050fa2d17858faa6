import { createHmac } from "node:crypto";

/**
 * The two hidden slices of a test split (protocol section 12, v1.3). A sample
 * is in the feedback slice when the first 8 bytes of
 * HMAC-SHA-256(IRC_SLICE_SECRET, slice family + "/" + the qid of its gold
 * entity), read as an unsigned big-endian integer divided by 2^64, are below
 * the release's feedback_fraction; every other test sample is in the ranking
 * slice. Keyed by the gold entity, so every sample of one entity is in the
 * same slice (a gold read through the owner's feedback names no ranking-slice
 * gold), and by the slice family (the release name unless dataset.json sets
 * slice_family), not the version: a sample keeps its slice for as long as it
 * stays in the test split with the same gold entity.
 *
 * Pure (no database, no environment): the secret comes in as an argument. The
 * result is server-side only; nothing that leaves the server may say which
 * slice a sample is in.
 */

export type SliceName = "feedback" | "ranking";

type SliceKey = { secret: string; sliceFamily: string; feedbackFraction: number };

/** The positions of each slice's samples, in the order of the ids given (gold order). */
export type TestSlices = { feedback: Uint32Array; ranking: Uint32Array };

const TWO_TO_64 = 2 ** 64;

/**
 * `value / 2^64 < fraction` exactly: `fraction * 2^64` only scales the
 * double's exponent, so for any fraction above 2^-11 it is an exact integer.
 */
function feedbackThreshold(fraction: number): bigint {
  if (!(fraction > 0 && fraction < 1)) throw new RangeError(`feedback_fraction must be in (0, 1), got ${fraction}`);
  return BigInt(Math.ceil(fraction * TWO_TO_64));
}

/** @internal exported for its tests; the platform does not call it. */
export function isFeedbackEntity(key: SliceKey, qid: string): boolean {
  return sliceValue(key, qid) < feedbackThreshold(key.feedbackFraction);
}

function sliceValue(key: SliceKey, qid: string): bigint {
  return createHmac("sha256", key.secret).update(`${key.sliceFamily}/${qid}`, "utf8").digest().readBigUInt64BE(0);
}

/** The slices of a test split from the qid of each sample's gold entity, in gold order. */
export function computeTestSlices(key: SliceKey, goldQids: readonly string[]): TestSlices {
  const threshold = feedbackThreshold(key.feedbackFraction);
  const isFeedback = new Map<string, boolean>();
  const feedback: number[] = [];
  const ranking: number[] = [];
  goldQids.forEach((qid, index) => {
    let inFeedback = isFeedback.get(qid);
    if (inFeedback === undefined) {
      inFeedback = sliceValue(key, qid) < threshold;
      isFeedback.set(qid, inFeedback);
    }
    (inFeedback ? feedback : ranking).push(index);
  });
  return { feedback: Uint32Array.from(feedback), ranking: Uint32Array.from(ranking) };
}

/** The elements of `values` at `positions`, in that order. */
export function pickPositions<T>(values: readonly T[], positions: Uint32Array): T[] {
  const picked = new Array<T>(positions.length);
  for (let i = 0; i < positions.length; i += 1) picked[i] = values[positions[i]!]!;
  return picked;
}

/** The bytes of `codes` at `positions`, in that order. */
export function pickCodes(codes: Uint8Array, positions: Uint32Array): Uint8Array {
  const picked = new Uint8Array(positions.length);
  for (let i = 0; i < positions.length; i += 1) picked[i] = codes[positions[i]!]!;
  return picked;
}
