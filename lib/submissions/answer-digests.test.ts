import { describe, expect, it } from "vitest";
import { buildKbIndex } from "@/lib/scoring/gold";
import {
  answerKeys as answerKeysIn,
  compareAnswerDigests,
  computeAnswerDigests as computeAnswerDigestsIn,
  minimumDifferingSamples,
  tooCloseOf,
} from "@/lib/submissions/answer-digests";
import { buildScorableAnswers } from "@/lib/submissions/scorable-answers";
import type { TrackPredictions } from "@/lib/scoring/track-predictions";

// First 8 bytes of SHA-256, computed outside this code (python3 hashlib).
const SHA_EMPTY = "e3b0c44298fc1c14"; // ""
const SHA_0 = "5feceb66ffc86f38"; // "0"
const SHA_1 = "6b86b273ff34fce1"; // "1"
const SHA_0_1 = "83b97b859aa5f81b"; // "0,1"
const SHA_P1_0 = "a6685f3b62d57bfc"; // "1:0"

/** Candidates in KB order: Q1 is 0, Q2 is 1, Q12 is 2, Q23 is 3; Q3 and Q9 are train or dev entities. */
const scorable = buildScorableAnswers(
  buildKbIndex([
    { qid: "Q1", name: "Attack on Pearl Harbor", type: "Event", aliases: [] },
    { qid: "Q2", name: "Paris", type: "Place", aliases: [] },
    { qid: "Q12", name: "Lisbon", type: "Place", aliases: [] },
    { qid: "Q23", name: "Porto", type: "Place", aliases: [] },
    { qid: "Q3", name: "Apollo 11", type: "Event", aliases: [] },
    { qid: "Q9", name: "Berlin", type: "Place", aliases: [] },
  ]),
  new Set(["Q3", "Q9"]),
);

const answerKeys = (prediction: string | readonly string[] | undefined) => answerKeysIn(prediction, typeof prediction === "string" ? "open" : "closed", scorable);
const computeAnswerDigests = (sampleIds: readonly string[], predictions: TrackPredictions) => computeAnswerDigestsIn(sampleIds, predictions, scorable);
const hexOf = (digests: Uint8Array) => Buffer.from(digests).toString("hex");

describe("answerKeys", () => {
  it("open track: per metric (exact, alias, contain, jaccard) the candidates that would make the answer count", () => {
    expect(answerKeys("  Attack   on\tPEARL Harbor ")).toEqual(["0", "0", "0", "0"]);
    // Tier 3 only: the prediction is a run of Q1's name; tier 4: 2 of 4 tokens.
    expect(answerKeys("Pearl Harbor")).toEqual(["", "", "0", "0"]);
  });

  it("open track: answers that count for the same candidates on a metric have the same key there, whatever their text", () => {
    expect(answerKeys("Pearl Harbor.")).toEqual(answerKeys("Pearl Harbor!"));
    expect(answerKeys("Paris zzq1")).toEqual(answerKeys("zzq2 Paris"));
    expect(answerKeys("Paris zzq1")).toEqual(["", "", "1", "1"]);
  });

  it("open track: an answer no candidate could make count is no answer", () => {
    expect(answerKeys("zzq1x7")).toEqual(["", "", "", ""]);
    expect(answerKeys("Apollo 11")).toEqual(["", "", "", ""]);
    expect(answerKeys("")).toEqual(["", "", "", ""]);
  });

  it("closed track: per metric (hit@1, hit@3, hit@5, hit@10, mrr, alias_hit@1), train and dev entities dropped", () => {
    // Q3 on top (Apollo 11, no candidate's name), Q1 at 2, Q2 at 4.
    expect(answerKeys(["Q3", "Q1", "Q9", "Q2"])).toEqual(["", "0", "0,1", "0,1", "2:0 4:1", ""]);
    expect(answerKeys(["Q9", "Q3"])).toEqual(["", "", "", "", "", ""]);
  });

  it("closed track: the same candidates in the first k places in another order are the same hit@k answer, not the same MRR answer", () => {
    const [hit1, hit3, hit5, hit10, mrr] = answerKeys(["Q1", "Q2", "Q3"]);
    const swapped = answerKeys(["Q1", "Q3", "Q2"]);
    expect(swapped.slice(0, 4)).toEqual([hit1, hit3, hit5, hit10]);
    expect(swapped[4]).not.toBe(mrr);
  });

  it("a missing sample is no answer on every metric", () => {
    expect(answerKeysIn(undefined, "closed", scorable)).toEqual(["", "", "", "", "", ""]);
    expect(answerKeysIn(undefined, "open", scorable)).toEqual(["", "", "", ""]);
  });
});

describe("computeAnswerDigests", () => {
  it("writes, per sample in gold order, one 8-byte digest per metric of the track", () => {
    const predictions = new Map([
      ["b", ""],
      ["a", "Attack on Pearl Harbor"],
    ]);
    const attack = SHA_0.repeat(4);
    const none = SHA_EMPTY.repeat(4);
    expect(hexOf(computeAnswerDigests(["a", "b"], { track: "open", predictions }))).toBe(attack + none);
    expect(hexOf(computeAnswerDigests(["b", "a"], { track: "open", predictions }))).toBe(none + attack);
  });

  it("digests closed-world rankings", () => {
    // hit@1 "0", hit@3 "0,1", hit@5 "0,1", hit@10 "0,1", mrr "1:0 3:1" (not hashed here), alias_hit@1 "0"
    const digests = hexOf(computeAnswerDigests(["a"], { track: "closed", predictions: new Map([["a", ["Q1", "Q9", "Q2"]]]) }));
    expect(digests.slice(0, 64)).toBe(SHA_0 + SHA_0_1 + SHA_0_1 + SHA_0_1);
    expect(digests.slice(80)).toBe(SHA_0);
    const top = hexOf(computeAnswerDigests(["a"], { track: "closed", predictions: new Map([["a", ["Q2"]]]) }));
    expect(top).toBe(SHA_1.repeat(4) + "" + top.slice(64, 80) + SHA_1);
    expect(hexOf(computeAnswerDigests(["a"], { track: "closed", predictions: new Map([["a", ["Q1"]]]) })).slice(64, 80)).toBe(SHA_P1_0);
  });
});

describe("compareAnswerDigests and tooCloseOf", () => {
  const ids = Array.from({ length: 40 }, (_, index) => `s${index}`);

  function openFile(probe: string, padding: (index: number) => string): TrackPredictions {
    const predictions = new Map(ids.map((id, index) => [id, padding(index)]));
    predictions.set("s0", "Attack on Pearl Harbor");
    predictions.set("s1", "Paris");
    predictions.set("s2", probe);
    return { track: "open", predictions };
  }

  it("open track: a new probe among new nonsense, or among punctuation-only changes, is one sample", () => {
    const first = computeAnswerDigests(ids, openFile("Lisbon", (index) => `zzq${index}`));
    expect(compareAnswerDigests(first, computeAnswerDigests(ids, openFile("Porto", (index) => `yyq${index}`)), "open").differing).toBe(1);
    const dotted = computeAnswerDigests(ids, openFile("Lisbon", () => "Pearl Harbor."));
    const banged = computeAnswerDigests(ids, openFile("Porto", () => "Pearl Harbor!"));
    expect(compareAnswerDigests(dotted, banged, "open")).toEqual({ differing: 1, differingByMetric: [1, 1, 1, 1] });
  });

  it("closed track: padding that moves only MRR (places 2 and 3 swapped) leaves hit@1 at the one changed guess, which is too close", () => {
    const file = (probeTop: string, isSwapped: boolean): TrackPredictions => {
      const predictions = new Map<string, readonly string[]>(ids.map((id) => [id, isSwapped ? ["Q3", "Q23", "Q12"] : ["Q3", "Q12", "Q23"]]));
      predictions.set("s0", [probeTop, "Q9"]);
      return { track: "closed", predictions };
    };
    const comparison = compareAnswerDigests(computeAnswerDigests(ids, file("Q1", false)), computeAnswerDigests(ids, file("Q2", true)), "closed");
    // 39 swapped rankings and the probe: every sample differs on MRR; the top 3, 5 and 10 hold the same candidates
    // in the swapped ones, so hit@k and alias_hit@1 differ in the probe only.
    expect(comparison).toEqual({ differing: 40, differingByMetric: [1, 1, 1, 1, 40, 1] });
    expect(tooCloseOf(comparison, "closed", 25)).toEqual({ metric: "hit@1", differing: 1 });
    expect(tooCloseOf({ differing: 40, differingByMetric: [0, 40, 0, 0, 40, 0] }, "closed", 25)).toBeNull();
    expect(tooCloseOf({ differing: 24, differingByMetric: [24, 24, 24, 24, 24, 24] }, "closed", 25)).toEqual({ metric: null, differing: 24 });
  });

  it("a digest that differs in its last byte only still differs, and samples past the shorter string differ on every metric", () => {
    const zero = "0000000000000000";
    const one = "0000000000000001";
    const open = (...hex: string[]) => Buffer.from(hex.join(""), "hex");
    expect(compareAnswerDigests(open(zero, zero, zero, zero), open(zero, zero, zero, one), "open")).toEqual({ differing: 1, differingByMetric: [0, 0, 0, 1] });
    expect(compareAnswerDigests(open(zero, zero, zero, zero), open(zero, zero, zero, zero, one, one, one, one), "open")).toEqual({ differing: 1, differingByMetric: [1, 1, 1, 1] });
  });
});

describe("minimumDifferingSamples", () => {
  it("is max(25, ceil(1% of the samples))", () => {
    expect(minimumDifferingSamples(56)).toBe(25);
    expect(minimumDifferingSamples(2500)).toBe(25);
    expect(minimumDifferingSamples(2501)).toBe(26);
    expect(minimumDifferingSamples(10_000)).toBe(100);
  });
});
