import { describe, expect, it } from "vitest";
import { computeProbeFlags } from "./probe-flags";
import { probeFlagsSchema, raisedProbeFlags, readProbeFlags } from "./probe-flags-schema";

const KNOWN = new Set(["Q1", "Q2", "Q3"]);

function closed(rankings: Record<string, string[]>) {
  return computeProbeFlags({ track: "closed", predictions: new Map(Object.entries(rankings)), knownSplitQids: KNOWN });
}

function open(predictions: string[]) {
  return computeProbeFlags({ track: "open", predictions: new Map(predictions.map((prediction, index) => [`s${index}`, prediction])), knownSplitQids: KNOWN });
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
    expect(flags).toMatchObject({ version: 1, track: "closed", n: 4 });
    expect(flags.flags.map((candidate) => candidate.id)).toEqual(["single_entry_rankings", "top1_from_known_splits"]);
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
    expect(raisedProbeFlags(closed(rankings)).map((candidate) => candidate.id)).toEqual(["single_entry_rankings", "top1_from_known_splits"]);
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
    expect(flags.flags.map((candidate) => candidate.id)).toEqual(["most_common_prediction", "many_names", "short_predictions"]);
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
