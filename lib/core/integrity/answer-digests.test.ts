import { describe, expect, it } from "vitest";
import { buildKbIndex } from "@/lib/core/scoring/gold";
import {
  answerEntities,
  answerKey,
  buildAnswerIndex,
  computeAnswerDigests,
  countDifferences,
  publicationThresholds,
  tooCloseOf,
  type DigestDifferences,
} from "@/lib/core/integrity/answer-digests";
import type { TrackPredictions } from "@/lib/core/scoring/track-predictions";

// First 8 bytes of SHA-256, computed outside this code (python3 hashlib).
const SHA_EMPTY = "e3b0c44298fc1c14"; // "": every answer that cannot be right
const SHA_Q1 = "32d833f348ce377c"; // "Q1"
const SHA_Q1_Q7 = "36e4f9bf24fed551"; // "Q1,Q7"
const SHA_Q2 = "8845886be6cbcf28"; // "Q2"

/** Q8 ("Paris Hilton", alias "paris") and Q9 are train or dev golds: never right on the test split. */
const index = buildAnswerIndex(
  buildKbIndex([
    { qid: "Q1", name: "Attack on Pearl Harbor", type: "Event", aliases: ["Pearl Harbor attack"] },
    { qid: "Q2", name: "Paris", type: "Place", aliases: [] },
    { qid: "Q3", name: "Apollo 11", type: "Event", aliases: [] },
    { qid: "Q7", name: "Pearl Harbor Attack", type: "Work", aliases: [] },
    { qid: "Q8", name: "Paris Hilton", type: "Person", aliases: ["paris"] },
    { qid: "Q9", name: "Tule Lake", type: "Place", aliases: [] },
  ]),
  ["Q8", "Q9"],
);

const open = (predictions: Record<string, string>): TrackPredictions => ({ track: "open", predictions: new Map(Object.entries(predictions)) });
const closed = (rankings: Record<string, string[]>): TrackPredictions => ({ track: "closed", predictions: new Map(Object.entries(rankings)) });
const hexOf = (digests: Uint8Array) => Buffer.from(digests).toString("hex");

describe("answerEntities", () => {
  it("open: the entities whose normalised name or alias is the normalised prediction, train and dev golds included", () => {
    expect(answerEntities("  attack ON\tpearl   harbor ", index)).toEqual(["Q1"]);
    expect(answerEntities("Pearl Harbor attack", index)).toEqual(["Q1", "Q7"]);
    expect(answerEntities("PARIS", index)).toEqual(["Q2", "Q8"]);
    expect(answerEntities("zzq1", index)).toEqual([]);
    expect(answerEntities("", index)).toEqual([]);
    expect(answerEntities(undefined, index)).toEqual([]);
  });

  it("closed: the top entity and those its name names; the places below the top do not matter", () => {
    expect(answerEntities(["Q7", "Q2"], index)).toEqual(["Q1", "Q7"]);
    expect(answerEntities(["Q2"], index)).toEqual(["Q2", "Q8"]);
    expect(answerEntities(["Q8", "Q1", "Q2"], index)).toEqual(["Q8"]);
  });
});

describe("answerKey (protocol §12: what the scorer could read as right on the test split)", () => {
  it("leaves out the train and dev golds", () => {
    expect(answerKey("Paris", index)).toEqual(["Q2"]);
    expect(answerKey(["Q2", "Q3"], index)).toEqual(["Q2"]);
    expect(answerKey("Pearl Harbor attack", index)).toEqual(["Q1", "Q7"]);
  });

  it("collapses every answer that cannot be right to one value: a train or dev gold, nothing of the KB, nothing at all", () => {
    const cannot = [answerKey("Tule Lake", index), answerKey("Paris Hilton", index), answerKey(["Q8", "Q2"], index), answerKey(["Q9"], index), answerKey("zzq", index), answerKey("", index), answerKey(undefined, index)];
    for (const key of cannot) expect(key).toEqual([]);
  });
});

describe("computeAnswerDigests", () => {
  it("one 8-byte record per sample in the order given: the first 8 bytes of SHA-256 of the key's QIDs", () => {
    const digests = computeAnswerDigests(["s1", "s2", "s3", "s4", "s5"], open({ s4: "zzq", s1: "Attack on Pearl Harbor", s2: "Pearl Harbor attack", s3: "Paris", s5: "Tule Lake" }), index);
    expect(hexOf(digests)).toBe(`${SHA_Q1}${SHA_Q1_Q7}${SHA_Q2}${SHA_EMPTY}${SHA_EMPTY}`);
  });

  it("an open answer and a closed top-1 naming the same entities have the same record", () => {
    const fromOpen = computeAnswerDigests(["s1", "s2", "s3"], open({ s1: "attack on pearl harbor", s2: "pearl harbor attack", s3: "paris" }), index);
    const fromClosed = computeAnswerDigests(["s1", "s2", "s3"], closed({ s1: ["Q1", "Q3"], s2: ["Q7"], s3: ["Q2", "Q1"] }), index);
    expect(hexOf(fromClosed)).toBe(hexOf(fromOpen));
  });

  it("swapping one answer that cannot be right for another changes no record", () => {
    const ids = ["s1", "s2", "s3"];
    const first = computeAnswerDigests(ids, open({ s1: "Tule Lake", s2: "zzq1", s3: "Paris Hilton" }), index);
    const second = computeAnswerDigests(ids, closed({ s1: ["Q8", "Q2"], s2: ["Q9"], s3: ["Q9", "Q1"] }), index);
    expect(hexOf(second)).toBe(hexOf(first));
    expect(countDifferences({ digests: first, other: second, otherPositionOf: null, collections: ["A", "A", "B"] }).differing).toBe(0);
  });
});

describe("countDifferences", () => {
  const ids = ["s1", "s2", "s3", "s4"];
  const collections = ["A", "A", "B", "B"];
  const first = computeAnswerDigests(ids, open({ s1: "Paris", s2: "zzq1", s3: "Apollo 11", s4: "Tule Lake" }), index);

  it("counts the samples whose keys differ, overall and per collection", () => {
    // s1: Paris -> Attack on Pearl Harbor (differs); s2: nonsense -> other nonsense (same); s3: the same entity; s4: a dev gold -> Paris (differs).
    const second = computeAnswerDigests(ids, open({ s1: "Attack on Pearl Harbor", s2: "zzq2", s3: "apollo 11", s4: "Paris" }), index);
    const differences = countDifferences({ digests: first, other: second, otherPositionOf: null, collections });
    expect(differences.differing).toBe(2);
    expect([...differences.byCollection]).toEqual([
      ["A", 1],
      ["B", 1],
    ]);
  });

  it("maps positions across versions; a sample the other version lacks compares as an answer that cannot be right", () => {
    const other = computeAnswerDigests(["s3", "s1", "x"], open({ s3: "Apollo 11", s1: "Paris", x: "Paris" }), index);
    const differences = countDifferences({ digests: first, other, otherPositionOf: Int32Array.from([1, -1, 0, -1]), collections });
    // s1 same, s2 (nonsense) against nothing: same, s3 same, s4 (a dev gold) against nothing: same.
    expect(differences.differing).toBe(0);
  });

  it("stops once more than stopAbove samples differ", () => {
    const other = computeAnswerDigests(ids, open({ s1: "Apollo 11", s2: "Paris", s3: "Paris", s4: "Apollo 11" }), index);
    expect(countDifferences({ digests: first, other, otherPositionOf: null, collections, stopAbove: 1 }).differing).toBe(2);
  });
});

describe("publicationThresholds and tooCloseOf", () => {
  it("overall: ceil(max(25, 1% of the test split) / (1 - f)); per collection: ceil(min_group_n / (1 - f))", () => {
    // 4,633 samples, f = 0.25: 46.33 / 0.75 = 61.77 -> 62; 30 / 0.75 = 40.
    expect(publicationThresholds({ testSamples: 4_633, feedbackFraction: 0.25, minGroupN: 30 })).toEqual({ overall: 62, perCollection: 40 });
    // 56 samples: max(25, 0.56) = 25; 25 / 0.75 = 33.3 -> 34; 5 / 0.75 = 6.7 -> 7.
    expect(publicationThresholds({ testSamples: 56, feedbackFraction: 0.25, minGroupN: 5 })).toEqual({ overall: 34, perCollection: 7 });
    // Exact quotients stay exact: 100 / 0.8 = 125 (not 126 from 125.00000000000001); 30 / 0.5 = 60.
    expect(publicationThresholds({ testSamples: 10_000, feedbackFraction: 0.2, minGroupN: 24 })).toEqual({ overall: 125, perCollection: 30 });
    expect(publicationThresholds({ testSamples: 2_500, feedbackFraction: 0.5, minGroupN: 30 })).toEqual({ overall: 50, perCollection: 60 });
    // 1% of 2,501 is 25.01: 25.01 / 0.75 = 33.35 -> 34.
    expect(publicationThresholds({ testSamples: 2_501, feedbackFraction: 0.25, minGroupN: 30 }).overall).toBe(34);
  });

  const differences = (differing: number, byCollection: Record<string, number>): DigestDifferences => ({ differing, byCollection: new Map(Object.entries(byCollection)) });

  it("the first rule broken: overall, then a collection that differs in some samples but too few; a collection that does not differ reads nothing", () => {
    const thresholds = { overall: 62, perCollection: 40 };
    expect(tooCloseOf(differences(61, { A: 61 }), thresholds)).toEqual({ rule: "overall" });
    expect(tooCloseOf(differences(62, { A: 62 }), thresholds)).toBeNull();
    expect(tooCloseOf(differences(101, { A: 100, C: 1 }), thresholds)).toEqual({ rule: "collection", collection: "C" });
    expect(tooCloseOf(differences(120, { B: 39, A: 81 }), thresholds)).toEqual({ rule: "collection", collection: "B" });
    expect(tooCloseOf(differences(120, { A: 80, B: 40, C: 0 }), thresholds)).toBeNull();
    expect(tooCloseOf(differences(101, { A: 100, C: 1 }), { overall: 62, perCollection: null })).toBeNull();
  });
});
