import { describe, expect, it } from "vitest";
import { computeTestSlices, isFeedbackSample, pickCodes, pickPositions } from "./slice-membership";

// Expected values from Python's hmac module:
// int.from_bytes(hmac.new(secret, b"irc-bench/" + id, sha256).digest()[:8], "big") / 2**64
const SECRET = "test-secret-of-at-least-32-characters!!";
const key = (feedbackFraction: number) => ({ secret: SECRET, releaseName: "irc-bench", feedbackFraction });

describe("test slices (protocol section 12)", () => {
  it("puts a sample in the feedback slice when its HMAC value is below the fraction", () => {
    // irc-000001 -> 0.42610, irc-000002 -> 0.90488, irc-000003 -> 0.95719, t-42 -> 0.19080
    expect(isFeedbackSample(key(0.25), "t-42")).toBe(true);
    expect(isFeedbackSample(key(0.19), "t-42")).toBe(false);
    expect(isFeedbackSample(key(0.25), "irc-000001")).toBe(false);
    expect(isFeedbackSample(key(0.43), "irc-000001")).toBe(true);
    expect(computeTestSlices(key(0.5), ["irc-000001", "irc-000002", "t-42", "irc-000003"])).toEqual({
      feedback: Uint32Array.from([0, 2]),
      ranking: Uint32Array.from([1, 3]),
    });
  });

  it("compares exactly at the boundary: value / 2^64 < fraction", () => {
    // t-42's value is 3519552046597412953; 3519552046597412953 / 2^64 = 0.19079529875483592...
    expect(isFeedbackSample(key(0.190795298754836), "t-42")).toBe(true);
    expect(isFeedbackSample(key(0.1907952987548359), "t-42")).toBe(false);
  });

  it("keys by release name, so other names reshuffle and versions do not", () => {
    const other = { ...key(0.25), releaseName: "irc-bench-x" };
    const ids = Array.from({ length: 400 }, (_, i) => `s-${i}`);
    const mine = computeTestSlices(key(0.25), ids);
    const theirs = computeTestSlices(other, ids);
    expect(mine.feedback.length + mine.ranking.length).toBe(400);
    expect(Array.from(mine.feedback)).not.toEqual(Array.from(theirs.feedback));
    expect(mine.feedback.length).toBeGreaterThan(60);
    expect(mine.feedback.length).toBeLessThan(140);
  });

  it("refuses a fraction outside (0, 1)", () => {
    expect(() => isFeedbackSample(key(0), "t-42")).toThrow(/feedback_fraction/);
    expect(() => isFeedbackSample(key(1), "t-42")).toThrow(/feedback_fraction/);
  });

  it("picks positions", () => {
    expect(pickPositions(["a", "b", "c", "d"], Uint32Array.from([3, 1]))).toEqual(["d", "b"]);
    expect(pickCodes(Uint8Array.from([9, 8, 7]), Uint32Array.from([0, 2]))).toEqual(Uint8Array.from([9, 7]));
  });
});
