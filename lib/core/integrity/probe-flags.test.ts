import { describe, expect, it } from "vitest";
import { buildKbIndex } from "@/lib/core/scoring/gold";
import { buildAnswerIndex } from "@/lib/core/integrity/answer-digests";
import { computeProbeFlags } from "./probe-flags";
import { probeFlagsSchema, raisedProbeFlags, readProbeFlags } from "./probe-flags-schema";

/** Q1-Q3, Q10 and Q11 are train or dev entities; Q7-Q9 could be test gold. "Paris" names a Place and a Person. */
const KNOWN = new Set(["Q1", "Q2", "Q3", "Q10", "Q11"]);
const answerIndex = buildAnswerIndex(
  buildKbIndex([
    { qid: "Q1", name: "Alpha One", type: "Place", aliases: [] },
    { qid: "Q2", name: "Beta Two", type: "Place", aliases: [] },
    { qid: "Q3", name: "Gamma", type: "Person", aliases: [] },
    { qid: "Q7", name: "Manzanar", type: "Place", aliases: [] },
    { qid: "Q8", name: "Tule Lake", type: "Place", aliases: [] },
    { qid: "Q9", name: "Selma", type: "Place", aliases: [] },
    { qid: "Q10", name: "Paris", type: "Place", aliases: [] },
    { qid: "Q11", name: "Paris Hilton", type: "Person", aliases: ["Paris"] },
  ]),
  KNOWN,
);

/** Every sample in one collection unless `collections` names it (by sample id). */
function collectionOf(ids: Iterable<string>, collections: Record<string, string> = {}): Map<string, string> {
  return new Map([...ids].map((id) => [id, collections[id] ?? "Regional"]));
}

function closed(rankings: Record<string, string[]>, collections?: Record<string, string>, minGroupN = 1) {
  const predictions = new Map(Object.entries(rankings));
  return computeProbeFlags({ track: "closed", predictions, knownSplitQids: KNOWN, answerIndex, collectionOf: collectionOf(predictions.keys(), collections), minGroupN });
}

function open(predictions: string[], collections?: Record<string, string>, minGroupN = 1) {
  const byId = new Map(predictions.map((prediction, index) => [`s${index}`, prediction]));
  return computeProbeFlags({ track: "open", predictions: byId, knownSplitQids: KNOWN, answerIndex, collectionOf: collectionOf(byId.keys(), collections), minGroupN });
}

function flag(flags: ReturnType<typeof computeProbeFlags>, id: string) {
  const found = flags.flags.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no flag ${id}`);
  return found;
}

describe("computeProbeFlags, closed world", () => {
  it("counts rankings of length one and top-1 entities of the train/dev splits", () => {
    // 4 samples: 2 of length one (s1, s2); tops Q1, Q9, Q2, Q8 -> 2 known (Q1, Q2). Q3 at rank 2 does not count.
    const flags = closed({ s1: ["Q1"], s2: ["Q9"], s3: ["Q2", "Q8"], s4: ["Q8", "Q3", "Q1"] });
    expect(flags).toMatchObject({ version: 2, track: "closed", n: 4 });
    expect(flags.flags.map((candidate) => candidate.id)).toEqual(["single_entry_rankings", "top1_from_known_splits", "uninformative_groups"]);
    // 2/4 = 0.5 is not above the 0.5 threshold.
    expect(flag(flags, "single_entry_rankings")).toMatchObject({ count: 2, value: 0.5, threshold: 0.5, raised: false });
    // 2/4 = 0.5 is under 0.9.
    expect(flag(flags, "top1_from_known_splits")).toMatchObject({ count: 2, value: 0.5, threshold: 0.9, raised: false });
  });

  it("raises both flags on a probe-like file: single train entities everywhere", () => {
    // 10 samples, 9 rankings ["Q1"] and one ["Q7", "Q1"]: 9/10 single, 9/10 known tops (0.9 is not above 0.9) ...
    const rankings: Record<string, string[]> = {};
    for (let index = 0; index < 9; index += 1) rankings[`s${index}`] = ["Q1"];
    rankings.s9 = ["Q7", "Q1"];
    const flags = closed(rankings);
    expect(flag(flags, "single_entry_rankings")).toMatchObject({ count: 9, value: 0.9, raised: true });
    expect(flag(flags, "top1_from_known_splits")).toMatchObject({ count: 9, value: 0.9, raised: false });
    // ... and with the last one also on a train entity, 10/10 = 1 is above 0.9.
    rankings.s9 = ["Q2", "Q7"];
    expect(flag(closed(rankings), "top1_from_known_splits")).toMatchObject({ count: 10, value: 1, raised: true });
    // Every top a train entity: the one collection, and the Place answers, are known to score zero.
    expect(raisedProbeFlags(closed(rankings)).map((candidate) => candidate.id)).toEqual(["single_entry_rankings", "top1_from_known_splits", "uninformative_groups"]);
  });
});

describe("computeProbeFlags, open world", () => {
  it("counts the most common prediction after norm, long lists and one-character answers", () => {
    const flags = open([
      "Pearl Harbor",
      "  pearl   HARBOR ",
      "PEARL HARBOR",
      "Manzanar",
      // 13 distinct tokens: a list of names.
      "a1 b2 c3 d4 e5 f6 g7 h8 i9 j10 k11 l12 m13",
      // 12 distinct tokens (repeats count once): not a list.
      "a b c d e f g h i j k l a b c",
      "x",
      "",
      " ",
      "Tule Lake",
    ]);
    expect(flags).toMatchObject({ track: "open", n: 10 });
    expect(flags.flags.map((candidate) => candidate.id)).toEqual(["most_common_prediction", "many_names", "short_predictions", "uninformative_groups"]);
    // "pearl harbor" answers 3 of 10 samples: 0.3 > 0.2.
    expect(flag(flags, "most_common_prediction")).toMatchObject({ count: 3, value: 0.3, threshold: 0.2, raised: true });
    // One of 10: 0.1.
    expect(flag(flags, "many_names")).toMatchObject({ count: 1, value: 0.1, raised: false });
    // "x", "" and " " (empty after norm): 3 of 10.
    expect(flag(flags, "short_predictions")).toMatchObject({ count: 3, value: 0.3, raised: true });
  });

  it("counts the empty string as a prediction when it is the most common one", () => {
    // 3 empty of 5: most common 0.6, short 0.6; "ab" has two characters and is not short.
    const flags = open(["", "", "", "ab", "Selma"]);
    expect(flag(flags, "most_common_prediction")).toMatchObject({ count: 3, value: 0.6, raised: true });
    expect(flag(flags, "short_predictions")).toMatchObject({ count: 3, value: 0.6, raised: true });
    expect(flag(flags, "many_names")).toMatchObject({ count: 0, value: 0, raised: false });
  });

  it("two equal answers of five (0.4) raise the flag; a varied file with one short answer (0.2) raises nothing", () => {
    const flags = open(["Manzanar", "Manzanar", "Tule Lake", "Heart Mountain", "Poston"]);
    expect(flag(flags, "most_common_prediction")).toMatchObject({ count: 2, value: 0.4, raised: true });
    const varied = open(["Manzanar", "Tule Lake", "Heart Mountain", "Poston", "x"]);
    expect(raisedProbeFlags(varied)).toEqual([]);
    expect(flag(varied, "short_predictions")).toMatchObject({ count: 1, value: 0.2, raised: false });
  });

  it("an empty file has value 0 everywhere", () => {
    expect(open([]).flags.every((candidate) => candidate.value === 0 && !candidate.raised)).toBe(true);
  });
});

describe("computeProbeFlags, collections and answer types naming only train or dev entities or nothing", () => {
  const collections = { s0: "Alpha", s1: "Alpha", s2: "Beta", s3: "Beta" };

  it("open world: flags the collection and the answer type, counting each sample once", () => {
    // Alpha: a train entity and nonsense. Beta: a possible test entity and a train Person. Place answers: Q1 (known), Q7 (not).
    const flags = open(["Alpha One", "zzq", "Manzanar", "Gamma"], collections);
    expect(flag(flags, "uninformative_groups")).toMatchObject({
      count: 3,
      value: 0.75,
      threshold: 0,
      raised: true,
      groups: [
        { kind: "collection", name: "Alpha", n: 2 },
        { kind: "type", name: "Person", n: 1 },
      ],
    });
  });

  it("closed world: the same groups, reading each top entity as the unified view does", () => {
    const flags = closed({ s0: ["Q1", "Q7"], s1: ["Q2"], s2: ["Q7"], s3: ["Q3", "Q7"] }, collections);
    expect(flag(flags, "uninformative_groups")).toMatchObject({ count: 3, groups: [{ kind: "collection", name: "Alpha" }, { kind: "type", name: "Person" }] });
  });

  it("an answer naming entities of two types has no type; a file with a possible test entity everywhere raises nothing", () => {
    // "Paris" names Q10 (Place) and Q11 (Person), both known: Alpha is flagged, no type is.
    const flags = open(["Paris", "Paris", "Manzanar", "Selma"], collections);
    expect(flag(flags, "uninformative_groups")).toMatchObject({ count: 2, groups: [{ kind: "collection", name: "Alpha", n: 2 }] });
    expect(flag(open(["Manzanar", "Selma", "Tule Lake", "Paris"], collections), "uninformative_groups")).toMatchObject({ count: 0, raised: false, groups: [] });
  });

  it("groups smaller than min_group_n are left out", () => {
    // Alpha has 2 answers, the Person type 1: with min_group_n 2 only Alpha is flagged, with 3 nothing.
    expect(flag(open(["Alpha One", "zzq", "Manzanar", "Gamma"], collections, 2), "uninformative_groups")).toMatchObject({ count: 2, groups: [{ kind: "collection", name: "Alpha" }] });
    expect(flag(open(["Alpha One", "zzq", "Manzanar", "Gamma"], collections, 3), "uninformative_groups")).toMatchObject({ count: 0, raised: false });
  });
});

describe("stored probe flags", () => {
  it("reads back what was computed, and nothing from a malformed row", () => {
    const flags = open(["a", "b"]);
    expect(readProbeFlags(JSON.parse(JSON.stringify(flags)))).toEqual(flags);
    expect(readProbeFlags(null)).toBeNull();
    expect(readProbeFlags({ version: 1, track: "open", n: 2, flags: [{ id: "nope" }] })).toBeNull();
    // raised must agree with value and threshold.
    const lying = { ...flags, flags: flags.flags.map((candidate) => ({ ...candidate, raised: !candidate.raised })) };
    expect(probeFlagsSchema.safeParse(lying).success).toBe(false);
    expect(readProbeFlags(lying)).toBeNull();
  });
});
