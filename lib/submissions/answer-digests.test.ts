import { describe, expect, it } from "vitest";
import {
  answerKey,
  computeAnswerDigests,
  countDifferingSamples,
  minimumDifferingSamples,
} from "@/lib/submissions/answer-digests";

// First 8 bytes of SHA-256, computed outside this code (python3 hashlib).
const SHA_EMPTY = "e3b0c44298fc1c14";
const SHA_PEARL = "aeed08a7b9b0b4df"; // "attack on pearl harbor"
const SHA_Q1_Q23 = "d9a7aab4cf2a602f"; // "Q1 Q23"

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

  it("keeps a ranking's order and separates its QIDs", () => {
    expect(answerKey(["Q1", "Q23"])).toBe("Q1 Q23");
    expect(answerKey(["Q12", "Q3"])).not.toBe(answerKey(["Q1", "Q23"]));
    expect(answerKey(["Q23", "Q1"])).not.toBe(answerKey(["Q1", "Q23"]));
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
    const predictions = new Map([["a", ["Q1", "Q23"]]]);
    expect(hexOf(computeAnswerDigests(["a"], { track: "closed", predictions }))).toBe(SHA_Q1_Q23);
  });

  it("gives files that differ only by case and spacing the same digests", () => {
    const first = computeAnswerDigests(["a"], { track: "open", predictions: new Map([["a", "Pearl Harbor"]]) });
    const second = computeAnswerDigests(["a"], { track: "open", predictions: new Map([["a", " pearl  HARBOR"]]) });
    expect(hexOf(first)).toBe(hexOf(second));
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
