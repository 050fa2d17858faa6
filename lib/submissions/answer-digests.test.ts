import { describe, expect, it } from "vitest";
import { buildKbIndex } from "@/lib/scoring/gold";
import {
  answerKey as answerKeyIn,
  computeAnswerDigests as computeAnswerDigestsIn,
  countDifferingSamples,
  minimumDifferingSamples,
} from "@/lib/submissions/answer-digests";
import { buildScorableAnswers } from "@/lib/submissions/scorable-answers";
import type { TrackPredictions } from "@/lib/scoring/track-predictions";

// First 8 bytes of SHA-256, computed outside this code (python3 hashlib).
const SHA_EMPTY = "e3b0c44298fc1c14";
const SHA_PEARL = "aeed08a7b9b0b4df"; // "attack on pearl harbor"
const SHA_Q1_Q23 = "d9a7aab4cf2a602f"; // "Q1 Q23" (key version 1)
const SHA_1Q1_2Q2 = "f7843d392fa3c5cf"; // "1:Q1 2:Q2"

/** Q1, Q2, Q12, Q23 are test candidates; Q3 and Q9 are train or dev entities. */
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

function answerKey(prediction: string | readonly string[] | undefined): string {
  return answerKeyIn(prediction, scorable);
}

function computeAnswerDigests(sampleIds: readonly string[], predictions: TrackPredictions): Uint8Array {
  return computeAnswerDigestsIn(sampleIds, predictions, scorable);
}

function hexOf(digests: Uint8Array): string {
  return Buffer.from(digests).toString("hex");
}

function digestsOf(...hex: string[]): Buffer {
  return Buffer.from(hex.join(""), "hex");
}

describe("answerKey", () => {
  it("normalises open-world predictions as the scorer does (§5)", () => {
    expect(answerKey("  Attack   on\tPEARL Harbor ")).toBe("attack on pearl harbor");
    expect(answerKey("ｐｅａｒｌ")).toBe("pearl");
  });

  it("keeps a ranking's candidates with their positions, and separates them", () => {
    expect(answerKey(["Q1", "Q23"])).toBe("1:Q1 2:Q23");
    expect(answerKey(["Q12", "Q2"])).toBe("1:Q12 2:Q2");
    expect(answerKey(["Q23", "Q1"])).toBe("1:Q23 2:Q1");
  });

  it("drops train and dev entities from a ranking, keeping the candidates' positions", () => {
    expect(answerKey(["Q3", "Q1", "Q9"])).toBe("2:Q1");
    expect(answerKey(["Q9", "Q1", "Q3"])).toBe("2:Q1");
    expect(answerKey(["Q9", "Q3"])).toBe("");
  });

  it("an open-world answer no candidate could make right is no answer", () => {
    expect(answerKey("zzq1x7")).toBe("");
    expect(answerKey("Apollo 11")).toBe("");
    expect(answerKey("pearl harbor")).toBe("pearl harbor");
  });

  it("treats a missing sample as an empty answer", () => {
    expect(answerKey(undefined)).toBe("");
  });
});

describe("computeAnswerDigests", () => {
  it("writes one 8-byte digest per sample in gold order, whatever the file's order", () => {
    const predictions = new Map([
      ["b", ""],
      ["a", "Attack on Pearl Harbor"],
    ]);
    expect(hexOf(computeAnswerDigests(["a", "b"], { track: "open", predictions }))).toBe(SHA_PEARL + SHA_EMPTY);
    expect(hexOf(computeAnswerDigests(["b", "a"], { track: "open", predictions }))).toBe(SHA_EMPTY + SHA_PEARL);
  });

  it("digests closed-world rankings", () => {
    const predictions = new Map([
      ["a", ["Q1", "Q2"]],
      ["b", ["Q1", "Q9", "Q2"]],
    ]);
    // "1:Q1 2:Q2", then "1:Q1 3:Q2"
    expect(hexOf(computeAnswerDigests(["a", "b"], { track: "closed", predictions }))).toBe(SHA_1Q1_2Q2 + "2c11d1561b46b209");
  });

  it("gives files that differ only by case and spacing the same digests", () => {
    const first = computeAnswerDigests(["a"], { track: "open", predictions: new Map([["a", "Pearl Harbor"]]) });
    const second = computeAnswerDigests(["a"], { track: "open", predictions: new Map([["a", " pearl  HARBOR"]]) });
    expect(hexOf(first)).toBe(hexOf(second));
  });
});

describe("the red team's attack (protocol §12)", () => {
  const ids = Array.from({ length: 40 }, (_, index) => `s${index}`);

  function openFile(probe: string, salt: string): TrackPredictions {
    const predictions = new Map(ids.map((id, index) => [id, `zzq${salt}x${index}`]));
    predictions.set("s0", "Attack on Pearl Harbor");
    predictions.set("s1", "Paris");
    predictions.set("s2", probe);
    return { track: "open", predictions };
  }

  it("open track: a new probe answer among new nonsense differs in one sample", () => {
    const first = computeAnswerDigests(ids, openFile("Lisbon", "a"));
    const second = computeAnswerDigests(ids, openFile("Porto", "b"));
    expect(countDifferingSamples(first, second)).toBe(1);
  });

  it("closed track: rankings of train and dev entities with the probe moved differ in one sample", () => {
    const file = (probeRank: number, isSwapped: boolean): TrackPredictions => {
      const filler = isSwapped ? ["Q3", "Q9"] : ["Q9", "Q3"];
      const predictions = new Map<string, readonly string[]>(ids.map((id) => [id, filler]));
      const probe = [...filler];
      probe.splice(probeRank - 1, 0, "Q12");
      predictions.set("s0", probe);
      return { track: "closed", predictions };
    };
    // the probe at rank 1, then at rank 3 with every other ranking reordered
    expect(countDifferingSamples(computeAnswerDigests(ids, file(1, false)), computeAnswerDigests(ids, file(3, true)))).toBe(1);
    expect(countDifferingSamples(computeAnswerDigests(ids, file(1, false)), computeAnswerDigests(ids, file(1, true)))).toBe(0);
  });
});

describe("countDifferingSamples", () => {
  it("counts samples whose digests differ", () => {
    const first = digestsOf(SHA_EMPTY, SHA_PEARL, SHA_Q1_Q23);
    expect(countDifferingSamples(first, digestsOf(SHA_EMPTY, SHA_PEARL, SHA_Q1_Q23))).toBe(0);
    expect(countDifferingSamples(first, digestsOf(SHA_EMPTY, SHA_EMPTY, SHA_Q1_Q23))).toBe(1);
    expect(countDifferingSamples(first, digestsOf(SHA_PEARL, SHA_EMPTY, SHA_EMPTY))).toBe(3);
  });

  it("a digest that differs in its last byte only still differs", () => {
    expect(countDifferingSamples(digestsOf("0000000000000000"), digestsOf("0000000000000001"))).toBe(1);
  });

  it("counts samples past the shorter string as different", () => {
    expect(countDifferingSamples(digestsOf(SHA_EMPTY), digestsOf(SHA_EMPTY, SHA_PEARL, SHA_Q1_Q23))).toBe(2);
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
