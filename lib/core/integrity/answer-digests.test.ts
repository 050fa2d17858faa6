import { describe, expect, it } from "vitest";
import { buildKbIndex } from "@/lib/core/scoring/gold";
import {
  answerEntities,
  buildAnswerIndex,
  computeAnswerDigests,
  countDifferences,
  publicationDistance,
  tooCloseOf,
  type DigestDifferences,
} from "@/lib/core/integrity/answer-digests";
import type { TrackPredictions } from "@/lib/core/scoring/track-predictions";

// First 7 bytes of SHA-256, computed outside this code (python3 hashlib), then the type mask byte.
const SHA_EMPTY = "e3b0c44298fc1c"; // ""
const SHA_Q1 = "32d833f348ce37"; // "Q1"
const SHA_Q1_Q7 = "36e4f9bf24fed5"; // "Q1,Q7"
const SHA_Q2_Q8 = "2ab6582a56f0f7"; // "Q2,Q8"

/** Type bits (ENTITY_TYPES order): Place 0x01, Person 0x04, Event 0x08, Work 0x10. */
const index = buildAnswerIndex(
  buildKbIndex([
    { qid: "Q1", name: "Attack on Pearl Harbor", type: "Event", aliases: ["Pearl Harbor attack"] },
    { qid: "Q2", name: "Paris", type: "Place", aliases: [] },
    { qid: "Q3", name: "Apollo 11", type: "Event", aliases: [] },
    { qid: "Q7", name: "Pearl Harbor Attack", type: "Work", aliases: [] },
    { qid: "Q8", name: "Paris Hilton", type: "Person", aliases: ["paris"] },
  ]),
);

const open = (predictions: Record<string, string>): TrackPredictions => ({ track: "open", predictions: new Map(Object.entries(predictions)) });
const closed = (rankings: Record<string, string[]>): TrackPredictions => ({ track: "closed", predictions: new Map(Object.entries(rankings)) });
const hexOf = (digests: Uint8Array) => Buffer.from(digests).toString("hex");

describe("answerEntities", () => {
  it("open track: the entities whose name or alias is the normalised prediction", () => {
    expect(answerEntities("  attack ON\tpearl   harbor ", index)).toEqual(["Q1"]);
    expect(answerEntities("Pearl Harbor attack", index)).toEqual(["Q1", "Q7"]);
    expect(answerEntities("PARIS", index)).toEqual(["Q2", "Q8"]);
    expect(answerEntities("zzq1", index)).toEqual([]);
    expect(answerEntities("", index)).toEqual([]);
    expect(answerEntities(undefined, index)).toEqual([]);
  });

  it("closed track: the top entity and every entity its name is the name or an alias of; places below the top do not count", () => {
    expect(answerEntities(["Q7", "Q2"], index)).toEqual(["Q1", "Q7"]);
    expect(answerEntities(["Q2"], index)).toEqual(["Q2", "Q8"]);
    expect(answerEntities(["Q8", "Q1", "Q2"], index)).toEqual(["Q8"]);
    expect(answerEntities(["Q3", "Q1"], index)).toEqual(answerEntities(["Q3", "Q2"], index));
  });
});

describe("computeAnswerDigests", () => {
  it("one 8-byte record per sample in the order given: 7 bytes of SHA-256 of the QIDs, then the type mask", () => {
    const digests = computeAnswerDigests(["s1", "s2", "s3", "s4"], open({ s4: "zzq", s1: "Attack on Pearl Harbor", s2: "Pearl Harbor attack", s3: "Paris" }), index);
    expect(hexOf(digests)).toBe(`${SHA_Q1}08${SHA_Q1_Q7}18${SHA_Q2_Q8}05${SHA_EMPTY}00`);
  });

  it("an open answer and a closed top-1 naming the same entities have the same record", () => {
    const fromOpen = computeAnswerDigests(["s1", "s2", "s3"], open({ s1: "attack on pearl harbor", s2: "pearl harbor attack", s3: "paris" }), index);
    const fromClosed = computeAnswerDigests(["s1", "s2", "s3"], closed({ s1: ["Q1", "Q3"], s2: ["Q7"], s3: ["Q2", "Q1"] }), index);
    expect(hexOf(fromClosed)).toBe(hexOf(fromOpen));
  });
});

describe("countDifferences", () => {
  const ids = ["s1", "s2", "s3", "s4"];
  const collections = ["A", "A", "B", "B"];
  const first = computeAnswerDigests(ids, open({ s1: "Paris", s2: "zzq1", s3: "Apollo 11", s4: "Paris Hilton" }), index);

  it("counts samples whose answers differ, per collection and per type named by either answer", () => {
    // s1: Q2,Q8 against Q1 (Place, Person, Event); s2: nonsense against other nonsense (same); s3: same; s4: Q8 against Q2,Q8.
    const second = computeAnswerDigests(ids, open({ s1: "Attack on Pearl Harbor", s2: "zzq2", s3: "apollo 11", s4: "Paris" }), index);
    const differences = countDifferences({ digests: first, other: second, otherPositionOf: null, positions: null, collections });
    expect(differences.differing).toBe(2);
    expect([...differences.byCollection]).toEqual([
      ["A", 1],
      ["B", 1],
    ]);
    expect(Object.fromEntries(differences.byType)).toEqual({ Place: 2, Person: 2, Event: 1 });
    // Only positions 1 and 3 counted (a slice).
    expect(countDifferences({ digests: first, other: second, otherPositionOf: null, positions: Uint32Array.from([1, 3]), collections }).differing).toBe(1);
  });

  it("aligns another release's file by position; a sample it does not have compares as an answer naming nothing", () => {
    // The other release has s3, s1 and an unknown sample, in that order; s2 and s4 are not in it.
    const other = computeAnswerDigests(["s3", "s1", "x"], open({ s3: "Apollo 11", s1: "Paris", x: "Paris" }), index);
    const differences = countDifferences({ digests: first, other, otherPositionOf: Int32Array.from([1, -1, 0, -1]), positions: null, collections });
    // s2 (nonsense) against nothing is no difference; s4 (Q8) against nothing is one.
    expect(differences.differing).toBe(1);
    expect(Object.fromEntries(differences.byType)).toEqual({ Person: 1 });
  });

  it("stops counting past stopAbove", () => {
    const other = computeAnswerDigests(ids, open({ s1: "x", s2: "Paris", s3: "Paris", s4: "x" }), index);
    expect(countDifferences({ digests: first, other, otherPositionOf: null, positions: null, collections, stopAbove: 1 }).differing).toBe(2);
  });
});

describe("tooCloseOf and publicationDistance", () => {
  const differences = (differing: number, byCollection: Record<string, number>, byType: Record<string, number>): DigestDifferences => ({
    differing,
    byCollection: new Map(Object.entries(byCollection)),
    byType: new Map(Object.entries(byType)) as DigestDifferences["byType"],
  });

  it("publicationDistance: the ranking slice's positions, and max(25, ceil(1% of the ranking slice's n)) of them", () => {
    const required = (rankingN: number) =>
      publicationDistance({ releaseId: "r", slices: { feedback: new Uint32Array(5_000), ranking: new Uint32Array(rankingN) } }).required;
    expect(required(174)).toBe(25);
    expect(required(2_500)).toBe(25);
    expect(required(2_501)).toBe(26);
    expect(required(3_475)).toBe(35);
    const ranking = Uint32Array.from([1, 4, 6]);
    expect(publicationDistance({ releaseId: "r", slices: { feedback: Uint32Array.from([0, 2, 3, 5]), ranking } }).positions).toBe(ranking);
    expect(() => publicationDistance({ releaseId: "r", slices: null })).toThrow("release r: the test split has no slices");
  });

  const shown = { minGroupN: 10, shownCollections: new Set(["A", "B", "C"]) };

  it("too few overall, then a collection, then a type differing in some samples but fewer than min_group_n", () => {
    expect(tooCloseOf(differences(24, { A: 24 }, { Place: 24 }), 25, shown)).toEqual({ rule: "overall" });
    expect(tooCloseOf(differences(40, { A: 31, B: 9 }, { Place: 40 }), 25, shown)).toEqual({ rule: "collection", group: "B" });
    expect(tooCloseOf(differences(40, { A: 30, B: 10 }, { Place: 40, Work: 3 }), 25, shown)).toEqual({ rule: "type", group: "Work" });
    expect(tooCloseOf(differences(40, { A: 30, B: 10, C: 0 }, { Place: 40, Work: 10 }), 25, shown)).toBeNull();
  });

  it("a collection too small to show numbers is held to the overall rule only; without a group rule, every group is", () => {
    expect(tooCloseOf(differences(40, { A: 31, Tiny: 9 }, { Place: 40 }), 25, shown)).toBeNull();
    expect(tooCloseOf(differences(40, { A: 31, B: 9 }, { Place: 37, Work: 3 }), 25, null)).toBeNull();
    expect(tooCloseOf(differences(24, { A: 24 }, { Place: 24 }), 25, null)).toEqual({ rule: "overall" });
  });
});
