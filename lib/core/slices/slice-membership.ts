import { createHmac } from "node:crypto";

/**
 * The two hidden slices of a test split (protocol section 12). A sample is in
 * the feedback slice when the first 8 bytes of
 * HMAC-SHA-256(IRC_SLICE_SECRET, release name + "/" + sample id), read as an
 * unsigned big-endian integer divided by 2^64, are below the release's
 * feedback_fraction; every other test sample is in the ranking slice.
 * Keyed by the release name, not its version: a sample keeps its slice for as
 * long as it stays in the test split.
 *
 * Pure (no database, no environment): the secret comes in as an argument. The
 * result is server-side only; nothing that leaves the server may say which
 * slice a sample is in.
 */

export type SliceName = "feedback" | "ranking";

type SliceKey = { secret: string; releaseName: string; feedbackFraction: number };

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
export function isFeedbackSample(key: SliceKey, sampleId: string): boolean {
  return sliceValue(key, sampleId) < feedbackThreshold(key.feedbackFraction);
}

function sliceValue(key: SliceKey, sampleId: string): bigint {
  return createHmac("sha256", key.secret).update(`${key.releaseName}/${sampleId}`, "utf8").digest().readBigUInt64BE(0);
}

export function computeTestSlices(key: SliceKey, sampleIds: readonly string[]): TestSlices {
  const threshold = feedbackThreshold(key.feedbackFraction);
  const feedback: number[] = [];
  const ranking: number[] = [];
  sampleIds.forEach((sampleId, index) => {
    (sliceValue(key, sampleId) < threshold ? feedback : ranking).push(index);
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
