import { describe, expect, it } from "vitest";
import { computeTestSlices, isFeedbackEntity, pickCodes, pickPositions } from "./slice-membership";

// Expected values from Python's hmac module:
// int.from_bytes(hmac.new(secret, b"irc-bench/" + qid, sha256).digest()[:8], "big") / 2**64
// Q42 -> 0.74468, Q64 -> 0.70145, Q90 -> 0.79535, Q1490 -> 0.61803, Q5 -> 0.36335
const SECRET = "test-secret-of-at-least-32-characters!!";
const key = (feedbackFraction: number) => ({ secret: SECRET, sliceFamily: "irc-bench", feedbackFraction });

describe("test slices (protocol section 12, keyed by the gold entity)", () => {
  it("puts an entity in the feedback slice when its HMAC value is below the fraction", () => {
    expect(isFeedbackEntity(key(0.37), "Q5")).toBe(true);
    expect(isFeedbackEntity(key(0.36), "Q5")).toBe(false);
    expect(isFeedbackEntity(key(0.5), "Q42")).toBe(false);
    expect(isFeedbackEntity(key(0.75), "Q42")).toBe(true);
  });

  it("puts every sample of one entity in the same slice, in gold order", () => {
    // Q5 (0.363) and Q1490 (0.618) are feedback at 0.65; Q42 (0.745) and Q90 (0.795) are ranking.
    const goldQids = ["Q42", "Q5", "Q1490", "Q42", "Q90", "Q5"];
    expect(computeTestSlices({ ...key(0.65) }, goldQids)).toEqual({
      feedback: Uint32Array.from([1, 2, 5]),
      ranking: Uint32Array.from([0, 3, 4]),
    });
  });

  it("compares exactly at the boundary: value / 2^64 < fraction", () => {
    // Q5's value is 6702681729595186083; / 2^64 = 0.36335310463529996...
    expect(isFeedbackEntity(key(0.36335310463530), "Q5")).toBe(true);
    expect(isFeedbackEntity(key(0.3633531046352999), "Q5")).toBe(false);
  });

  it("keys by slice family, so other families reshuffle and versions do not", () => {
    const other = { ...key(0.25), sliceFamily: "irc-bench-x" };
    const qids = Array.from({ length: 400 }, (_, i) => `Q${i + 1}`);
    const mine = computeTestSlices(key(0.25), qids);
    const theirs = computeTestSlices(other, qids);
    expect(mine.feedback.length + mine.ranking.length).toBe(400);
    expect(Array.from(mine.feedback)).not.toEqual(Array.from(theirs.feedback));
    expect(mine.feedback.length).toBeGreaterThan(60);
    expect(mine.feedback.length).toBeLessThan(140);
  });

  it("refuses a fraction outside (0, 1)", () => {
    expect(() => isFeedbackEntity(key(0), "Q5")).toThrow(/feedback_fraction/);
    expect(() => isFeedbackEntity(key(1), "Q5")).toThrow(/feedback_fraction/);
  });

  it("picks positions", () => {
    expect(pickPositions(["a", "b", "c", "d"], Uint32Array.from([3, 1]))).toEqual(["d", "b"]);
    expect(pickCodes(Uint8Array.from([9, 8, 7]), Uint32Array.from([0, 2]))).toEqual(Uint8Array.from([9, 7]));
  });
});
