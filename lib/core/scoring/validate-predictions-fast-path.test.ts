import path from "node:path";
import { describe, expect, it } from "vitest";
import { validatePredictionFile } from "@/lib/platform/io/validate-prediction-file";
import { closedPredictionLineSchema, openPredictionLineSchema } from "./prediction-line-schemas";
import {
  isWellFormedClosedLine,
  isWellFormedOpenLine,
  validatePredictionText,
  type PredictionValidatorOptions,
} from "./validate-predictions";

/**
 * The hand-checked fast path (isWellFormedOpenLine / isWellFormedClosedLine)
 * against the zod schemas that stay the contract: on every invalid suite the
 * validator gives byte-identical problems with and without it, and on a corpus
 * of edge values the hand check passes exactly the lines zod accepts.
 */

const ids = (count: number) => Array.from({ length: count }, (_, i) => `irc-${String(i + 1).padStart(6, "0")}`);
const KB = new Set(Array.from({ length: 200 }, (_, i) => `Q${i + 1}`));
const open = (id: unknown, prediction: unknown) => JSON.stringify({ id, prediction });
const closed = (id: unknown, ranking: unknown) => JSON.stringify({ id, ranking });
const ranking101 = Array.from({ length: 101 }, (_, i) => `Q${i + 1}`);
const ranking100 = ranking101.slice(0, 100);

const SUITES: Record<string, { lines: string[]; options: Partial<PredictionValidatorOptions> }> = {
  "invalid open-world lines": {
    lines: [
      open("irc-000001", "a"),
      "not json",
      "[1, 2]",
      JSON.stringify({ prediction: "x" }),
      open(5, "x"),
      open("irc-999999", "x"),
      open("irc-000001", "b"),
      open("irc-000002", 7),
      open("irc-000003", "x".repeat(513)),
      open("irc-000003", "😀".repeat(300)),
      closed("irc-000004", ["Q1"]),
      JSON.stringify({ id: "irc-000005" }),
      "null",
      open("nope", 5),
      open("irc-000006", null),
      open("irc-000007", ["a"]),
      open("irc-000008", "x".repeat(512)),
      '{"id": "irc-000009", "prediction": "Pearl \\ud83d"}',
    ],
    options: {},
  },
  "invalid closed-world lines": {
    lines: [
      closed("irc-000001", ["Q1", "Q2"]),
      closed("irc-000002", "Q1"),
      closed("irc-000003", []),
      closed("irc-000004", ranking101),
      closed("irc-000005", ["Q1", "Q2", "Q1"]),
      closed("irc-000006", ["Q1", "Q9999", "Q8888"]),
      closed("irc-000007", ["Q1", 5, null]),
      open("irc-000008", "x"),
      JSON.stringify({ id: "irc-000009", prediction: "x", ranking: ["Q1"] }),
      closed("irc-000010", ["Q9999", "Q9999"]),
      closed(7, ["Q1"]),
      closed("irc-000011", { 0: "Q1" }),
      closed("irc-000012", ranking100),
      closed("irc-000013", [["Q1"]]),
      '{"id": "irc-000014", "ranking": ["Q1", "\\ud83d"]}',
    ],
    options: { track: "closed" },
  },
};

function bothPaths(lines: readonly string[], options: PredictionValidatorOptions) {
  const fast = validatePredictionText(lines.join("\n"), options);
  const slow = validatePredictionText(lines.join("\n"), { ...options, isFastPathDisabled: true });
  return { fast, slow };
}

describe("the validator's fast path gives the zod path's problems, byte for byte", () => {
  for (const [name, suite] of Object.entries(SUITES)) {
    it(name, () => {
      const { fast, slow } = bothPaths(suite.lines, { sampleIds: ids(20), kbQids: KB, split: "dev", ...suite.options });
      expect(fast.ok).toBe(false);
      expect(JSON.stringify(fast)).toBe(JSON.stringify(slow));
    });
  }

  it("the demo's invalid open-world file, read from disk", async () => {
    const file = path.resolve(__dirname, "..", "..", "..", "data", "demo-predictions", "invalid-open.jsonl");
    const devIds = Array.from({ length: 400 }, (_, i) => `irc-${String(i + 1).padStart(6, "0")}`);
    const fast = await validatePredictionFile(file, { sampleIds: devIds, kbQids: KB, split: "dev" });
    const slow = await validatePredictionFile(file, { sampleIds: devIds, kbQids: KB, split: "dev", isFastPathDisabled: true });
    expect(fast.ok).toBe(false);
    expect(JSON.stringify(fast)).toBe(JSON.stringify(slow));
  });

  it("a valid file gives the same predictions either way", () => {
    const lines = ids(5).map((id, i) => closed(id, [`Q${i + 1}`, `Q${i + 2}`]));
    const { fast, slow } = bothPaths(lines, { sampleIds: ids(5), kbQids: KB, split: "dev" });
    expect(fast.ok).toBe(true);
    expect(fast.ok && [...fast.predictions]).toEqual(slow.ok && [...slow.predictions]);
  });
});

describe("the hand checks accept exactly what the zod schemas accept", () => {
  const values: unknown[] = [
    "x", "", "x".repeat(512), "x".repeat(513), "😀".repeat(256), "😀".repeat(257), 5, null, true, [], ["Q1"], {}, undefined,
  ];
  const rankings: unknown[] = [[], ["Q1"], ranking100, ranking101, ["Q1", 5], [null], "Q1", { 0: "Q1", length: 1 }, null, [""], [["Q1"]]];
  const idValues: unknown[] = ["irc-000001", "", 5, null, undefined, ["irc-000001"]];

  it("open-world lines", () => {
    for (const id of idValues) {
      for (const prediction of values) {
        const value = JSON.parse(JSON.stringify({ id, prediction, extra: 1 })) as Record<string, unknown>;
        expect(isWellFormedOpenLine(value), JSON.stringify({ id, prediction })).toBe(openPredictionLineSchema.safeParse(value).success);
      }
    }
  });

  it("closed-world lines", () => {
    for (const id of idValues) {
      for (const ranking of rankings) {
        const value = JSON.parse(JSON.stringify({ id, ranking })) as Record<string, unknown>;
        expect(isWellFormedClosedLine(value), JSON.stringify({ id, ranking })).toBe(closedPredictionLineSchema.safeParse(value).success);
      }
    }
  });
});
