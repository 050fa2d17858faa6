import { describe, expect, it } from "vitest";
import {
  buildKbNameIndex,
  classifyClosedSample,
  classifyOpenSample,
  classifySamples,
  errorClassOfCode,
  countClassesAt,
  summarizeClasses,
} from "./error-taxonomy";
import { buildGold, buildKbIndex } from "./gold";
import { encodeClosedOutcome, encodeTier } from "./outcome-codes";
import { scoreClosedWorld } from "./score-closed";
import { scoreOpenWorld } from "./score-open";

/**
 * Every class of both tracks on a hand-made KB. Each expectation is worked out
 * by hand from the rules in docs/scoring.md ("Error classes"), not by calling
 * the classifier on another input.
 */
const FILLERS = Array.from({ length: 10 }, (_, i) => ({ qid: `Q10${i}`, name: `Filler ${i}`, type: "Other" as const, aliases: [] }));
const kb = buildKbIndex([
  { qid: "Q1", name: "Attack on Pearl Harbor", type: "Event", aliases: ["Pearl Harbor attack"] },
  { qid: "Q2", name: "Pearl Harbor", type: "Place", aliases: [] },
  { qid: "Q3", name: "Honolulu", type: "Place", aliases: ["Honolulu, Hawaii", ""] },
  { qid: "Q4", name: "Battle of Midway", type: "Event", aliases: [] },
  { qid: "Q5", name: "Franklin D. Roosevelt", type: "Person", aliases: ["FDR"] },
  { qid: "Q6", name: "Paris", type: "Place", aliases: [] },
  { qid: "Q7", name: "Paris", type: "Person", aliases: ["Paris of Troy"] },
  { qid: "Q9", name: "Pearl Harbor", type: "Work", aliases: ["Pearl Harbor (film)"] },
  ...FILLERS,
]);
const names = buildKbNameIndex(kb);

describe("buildKbNameIndex", () => {
  it("maps every normalised name and alias to the types bearing it, in section 1 order, and skips empty names", () => {
    expect(names.get("pearl harbor")).toEqual(["Place", "Work"]);
    expect(names.get("paris")).toEqual(["Place", "Person"]);
    expect(names.get("honolulu, hawaii")).toEqual(["Place"]);
    expect(names.get("fdr")).toEqual(["Person"]);
    expect(names.has("")).toBe(false);
    expect(names.has("Paris")).toBe(false);
  });
});

describe("open-world classes", () => {
  it("correct: tier 1 or 2, whatever else the text names", () => {
    expect(classifyOpenSample("attack on pearl harbor", 1, "Event", names)).toEqual({ errorClass: "correct", answerType: "Event" });
    expect(classifyOpenSample("Pearl Harbor attack", 2, "Event", names)).toEqual({ errorClass: "correct", answerType: "Event" });
  });

  it("partial: tier 3 or 4; its answer type is what the text names, if anything", () => {
    // "Pearl Harbor" is contained in the gold name (tier 3) and names a Place and a Work; the gold is an Event.
    expect(classifyOpenSample("Pearl Harbor", 3, "Event", names)).toEqual({ errorClass: "partial", answerType: "Place" });
    // "Roosevelt Franklin": Jaccard 2/3 with "Franklin D. Roosevelt" (tier 4), names no KB entity.
    expect(classifyOpenSample("Roosevelt Franklin", 4, "Person", names)).toEqual({ errorClass: "partial", answerType: null });
  });

  it("empty: nothing left after norm()", () => {
    expect(classifyOpenSample("", 0, "Event", names)).toEqual({ errorClass: "empty", answerType: null });
    expect(classifyOpenSample(" \t ", 0, "Event", names)).toEqual({ errorClass: "empty", answerType: null });
  });

  it("wrong type: names (or aliases) KB entities of other types only", () => {
    expect(classifyOpenSample("Honolulu, Hawaii", 0, "Event", names)).toEqual({ errorClass: "wrong_type", answerType: "Place" });
    expect(classifyOpenSample("fdr", 0, "Place", names)).toEqual({ errorClass: "wrong_type", answerType: "Person" });
    // "Paris" is a Place and a Person; for an Event the first of them in section 1 order stands.
    expect(classifyOpenSample("Paris", 0, "Event", names)).toEqual({ errorClass: "wrong_type", answerType: "Place" });
  });

  it("same type: names a KB entity of the gold's type (through norm: case and white space)", () => {
    expect(classifyOpenSample("BATTLE OF   Midway ", 0, "Event", names)).toEqual({ errorClass: "same_type", answerType: "Event" });
    // One of the two entities called Paris is a Person: same type for a Person gold.
    expect(classifyOpenSample("Paris", 0, "Person", names)).toEqual({ errorClass: "same_type", answerType: "Person" });
  });

  it("not in KB: names no KB entity (a near name does not count)", () => {
    expect(classifyOpenSample("Winston Churchill", 0, "Person", names)).toEqual({ errorClass: "not_in_kb", answerType: null });
    expect(classifyOpenSample("Honolulu Hawaii", 0, "Event", names)).toEqual({ errorClass: "not_in_kb", answerType: null });
  });
});

describe("closed-world classes", () => {
  it("correct: gold at rank 1", () => {
    expect(classifyClosedSample(encodeClosedOutcome(1, true), "Event", "Event")).toEqual({ errorClass: "correct", answerType: "Event" });
  });

  it("alias twin: alias_hit@1 without hit@1, even with the gold at rank 2", () => {
    expect(classifyClosedSample(encodeClosedOutcome(2, true), "Work", "Place")).toEqual({ errorClass: "alias_twin", answerType: "Work" });
    expect(classifyClosedSample(encodeClosedOutcome(0, true), "Work", "Place")).toEqual({ errorClass: "alias_twin", answerType: "Work" });
  });

  it("in top 10: gold at rank 2 to 10", () => {
    expect(classifyClosedSample(encodeClosedOutcome(2, false), "Place", "Event")).toEqual({ errorClass: "in_top_10", answerType: "Place" });
    expect(classifyClosedSample(encodeClosedOutcome(10, false), "Event", "Event")).toEqual({ errorClass: "in_top_10", answerType: "Event" });
  });

  it("wrong type at 1 and same type at 1: gold below rank 10 or absent, by the top entity's type", () => {
    expect(classifyClosedSample(encodeClosedOutcome(0, false), "Place", "Event")).toEqual({ errorClass: "wrong_type_at_1", answerType: "Place" });
    expect(classifyClosedSample(encodeClosedOutcome(11, false), "Place", "Event")).toEqual({ errorClass: "wrong_type_at_1", answerType: "Place" });
    expect(classifyClosedSample(encodeClosedOutcome(0, false), "Event", "Event")).toEqual({ errorClass: "same_type_at_1", answerType: "Event" });
    expect(classifyClosedSample(encodeClosedOutcome(11, false), "Event", "Event")).toEqual({ errorClass: "same_type_at_1", answerType: "Event" });
  });
});

describe("classifySamples and summarizeClasses on whole files", () => {
  it("open track: the classes of scored predictions, counts per class and type, and the type-confusion matrix", () => {
    const gold = buildGold(
      [
        { id: "s1", qid: "Q1", collection: "A" },
        { id: "s2", qid: "Q1", collection: "A" },
        { id: "s3", qid: "Q1", collection: "B" },
        { id: "s4", qid: "Q5", collection: "B" },
        { id: "s5", qid: "Q1", collection: "B" },
        { id: "s6", qid: "Q1", collection: "A" },
        { id: "s7", qid: "Q1", collection: "A" },
        { id: "s8", qid: "Q5", collection: "A" },
        { id: "s9", qid: "Q1", collection: "A" },
        { id: "s10", qid: "Q5", collection: "A" },
      ],
      kb,
    );
    const predictions = new Map([
      ["s1", "attack on pearl harbor"],
      ["s2", "Pearl Harbor attack"],
      ["s3", "Pearl Harbor"],
      ["s4", "Roosevelt Franklin"],
      ["s5", ""],
      ["s6", "Honolulu, Hawaii"],
      ["s7", "Battle of Midway"],
      ["s8", "Paris"],
      ["s9", "Paris"],
      ["s10", "Winston Churchill"],
    ]);
    const outcomes = { track: "open" as const, codes: scoreOpenWorld(predictions, gold) };
    expect([...outcomes.codes]).toEqual([1, 2, 3, 4, 0, 0, 0, 0, 0, 0].map((tier) => encodeTier(tier === 0 ? null : (tier as 1 | 2 | 3 | 4))));
    const classified = classifySamples({ track: "open", predictions, gold, kb, outcomes, names });
    expect([...classified.classes].map((code) => errorClassOfCode("open", code))).toEqual([
      "correct",
      "correct",
      "partial",
      "partial",
      "empty",
      "wrong_type",
      "same_type",
      "same_type",
      "wrong_type",
      "not_in_kb",
    ]);
    const summary = summarizeClasses(classified, gold.map((record) => record.type));
    expect(summary.n).toBe(10);
    expect(summary.counts).toEqual({ correct: 2, partial: 2, empty: 1, wrong_type: 2, same_type: 2, not_in_kb: 1 });
    expect(summary.byType.Event).toEqual({ n: 7, counts: { correct: 2, partial: 1, empty: 1, wrong_type: 2, same_type: 1, not_in_kb: 0 } });
    expect(summary.byType.Person).toEqual({ n: 3, counts: { correct: 0, partial: 1, empty: 0, wrong_type: 0, same_type: 1, not_in_kb: 1 } });
    expect(summary.byType.Place.n).toBe(0);
    // Event row: s1, s2, s7 -> Event; s3 (Pearl Harbor), s6, s9 -> Place; s5 -> none.
    expect(summary.confusion.Event).toEqual({ Place: 3, Organization: 0, Person: 0, Event: 3, Work: 0, "Military Unit": 0, Other: 0, none: 1 });
    // Person row: s8 -> Person; s4, s10 -> none.
    expect(summary.confusion.Person).toEqual({ Place: 0, Organization: 0, Person: 1, Event: 0, Work: 0, "Military Unit": 0, Other: 0, none: 2 });
  });

  it("closed track: the classes of scored rankings and the confusion by top-1 type", () => {
    const gold = buildGold(
      [
        { id: "c1", qid: "Q1", collection: "A" },
        { id: "c2", qid: "Q2", collection: "A" },
        { id: "c3", qid: "Q1", collection: "A" },
        { id: "c4", qid: "Q1", collection: "A" },
        { id: "c5", qid: "Q1", collection: "A" },
        { id: "c6", qid: "Q1", collection: "A" },
      ],
      kb,
    );
    const fillers = FILLERS.map((filler) => filler.qid);
    const predictions = new Map<string, readonly string[]>([
      ["c1", ["Q1", "Q2"]],
      ["c2", ["Q9", "Q2"]],
      ["c3", ["Q4", "Q3", "Q1"]],
      ["c4", ["Q3", "Q4"]],
      ["c5", ["Q4"]],
      ["c6", ["Q4", ...fillers.slice(0, 9), "Q1"]],
    ]);
    const outcomes = { track: "closed" as const, codes: scoreClosedWorld(predictions, gold, kb) };
    const classified = classifySamples({ track: "closed", predictions, gold, kb, outcomes, names });
    expect([...classified.classes].map((code) => errorClassOfCode("closed", code))).toEqual([
      "correct",
      "alias_twin",
      "in_top_10",
      "wrong_type_at_1",
      "same_type_at_1",
      "same_type_at_1",
    ]);
    const summary = summarizeClasses(classified, gold.map((record) => record.type));
    expect(summary.counts).toEqual({ correct: 1, alias_twin: 1, in_top_10: 1, wrong_type_at_1: 1, same_type_at_1: 2 });
    // Event gold (c1, c3-c6): tops Q1, Q4, Q3, Q4, Q4 -> Event 4, Place 1. Place gold (c2): top Q9 is a Work.
    expect(summary.confusion.Event).toMatchObject({ Event: 4, Place: 1, none: 0 });
    expect(summary.confusion.Place).toMatchObject({ Work: 1, Place: 0 });
  });
});

describe("countClassesAt (a test slice's counts)", () => {
  it("counts the classes of the listed positions only, every class of the track present", () => {
    // Codes are indices into the closed-world classes: 0 correct, 1 alias_twin, 2 in_top_10, 3 wrong_type_at_1, 4 same_type_at_1.
    const classified = { track: "closed" as const, classes: Uint8Array.from([0, 0, 2, 4, 0, 3]), answerTypes: new Uint8Array(6) };
    // Positions 1, 2 and 5: correct, in_top_10, wrong_type_at_1.
    expect(countClassesAt(classified, Uint32Array.from([1, 2, 5]))).toEqual({
      n: 3,
      counts: { correct: 1, alias_twin: 0, in_top_10: 1, wrong_type_at_1: 1, same_type_at_1: 0 },
    });
    expect(countClassesAt(classified, new Uint32Array(0))).toEqual({ n: 0, counts: { correct: 0, alias_twin: 0, in_top_10: 0, wrong_type_at_1: 0, same_type_at_1: 0 } });
  });
});
