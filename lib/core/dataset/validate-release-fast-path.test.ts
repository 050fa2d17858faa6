import { describe, expect, it } from "vitest";
import { ENTITY_KEYS, SAMPLE_KEYS } from "@/lib/core/dataset/release-fast-checks";
import { entitySchema, sampleSchema } from "@/lib/core/dataset/release-schema";
import { wellFormedEntity, wellFormedSample } from "@/lib/core/dataset/release-fast-checks";
import { validateRelease, type ReleaseTexts } from "@/lib/core/dataset/validate-release";

/**
 * The hand checks of release lines (wellFormedEntity / wellFormedSample)
 * against the zod schemas that stay the contract: on every invalid suite the
 * validator gives byte-identical problems with and without them, on a valid
 * release the same content, and on a corpus of edge values the hand check
 * accepts exactly what zod accepts and returns what zod returns.
 */

const META = JSON.stringify({ name: "irc-bench", version: "1.0", description: "fixture" });
const entity = (fields: Record<string, unknown>) =>
  JSON.stringify({ qid: "Q1", name: "Ford", type: "Organization", aliases: [], description: "", description_wiki: "", ...fields });
const sample = (fields: Record<string, unknown>) =>
  JSON.stringify({ id: "s1", qid: "Q1", collection: "Labor", implicit_text: "I worked there.", explicit_text: "At Ford.", ...fields });

const KB = [
  entity({ qid: "Q1" }),
  entity({ qid: "Q2", name: "U.S. Army", type: "Military Unit", aliases: ["USA"] }),
  entity({ qid: "Q3", name: "Stanford", type: "Place" }),
  entity({ qid: "Q4", name: "Rosa Parks", type: "Person" }),
];

const SUITES: Record<string, ReleaseTexts> = {
  "invalid kb lines": {
    "dataset.json": META,
    "kb.jsonl": [
      ...KB,
      entity({ qid: "q5" }),
      entity({ qid: "Q6", name: "" }),
      entity({ qid: "Q7", name: "   " }),
      entity({ qid: "Q8", type: "Planet" }),
      entity({ qid: "Q9", aliases: "Ford" }),
      entity({ qid: "Q10", aliases: ["ok", 5] }),
      entity({ qid: "Q11", aliases: ["a\u0000b"] }),
      entity({ qid: "Q12", description: null }),
      entity({ qid: "Q13", description_wiki: 3 }),
      entity({ qid: "Q1" }),
      JSON.stringify({ qid: "Q14" }),
      "not json",
      "[1]",
      entity({ qid: 15 }),
    ],
    "dev.jsonl": [sample({ id: "d1", qid: "Q2" })],
  },
  "invalid sample lines": {
    "dataset.json": META,
    "kb.jsonl": KB,
    "dev.jsonl": [
      sample({ id: "d1", qid: "Q2" }),
      sample({ id: "", qid: "Q3" }),
      sample({ id: "d3", qid: "Q99" }),
      sample({ id: "d4", qid: "nope" }),
      sample({ id: "d5", qid: "Q3", collection: "__proto__" }),
      sample({ id: "d6", qid: "Q3", collection: " " }),
      sample({ id: "d7", qid: "Q3", implicit_text: "" }),
      sample({ id: "d8", qid: "Q3", explicit_text: 7 }),
      sample({ id: "d9", qid: "Q3", implicit_text: "nul \u0000 here" }),
      sample({ id: "d1", qid: "Q3" }),
      JSON.stringify({ id: "d10", collection: "Labor", implicit_text: "public shape" }),
      sample({ id: 11, qid: "Q3" }),
    ],
    "test.jsonl": [sample({ id: "t1", qid: "Q2" }), sample({ id: "t2", qid: "Q4", collection: 5 })],
  },
};

describe("release validation: fast path and zod agree", () => {
  it("checks the schemas' keys, in their order", () => {
    expect(ENTITY_KEYS).toEqual(Object.keys(entitySchema.shape));
    expect(SAMPLE_KEYS).toEqual(Object.keys(sampleSchema.shape));
  });

  for (const [name, texts] of Object.entries(SUITES)) {
    it(`gives byte-identical problems on the ${name}`, () => {
      const fast = validateRelease(texts, { splits: ["dev", "test"] });
      const slow = validateRelease(texts, { splits: ["dev", "test"], isFastPathDisabled: true });
      expect(fast.ok).toBe(false);
      expect(JSON.stringify(fast)).toBe(JSON.stringify(slow));
    });
  }

  it("gives the same release, key order included, on a valid one with extra fields", () => {
    const texts: ReleaseTexts = {
      "dataset.json": META,
      "kb.jsonl": [`{"description":"d","aliases":["A"],"extra":1,"qid":"Q1","name":"Ford","type":"Organization","description_wiki":"w"}`, ...KB.slice(1)],
      "dev.jsonl": [`{"explicit_text":"","name":"Ford","id":"d1","implicit_text":"x","qid":"Q1","collection":"Labor","type":"Organization","aliases":[]}`],
    };
    const fast = validateRelease(texts, { splits: ["dev"] });
    const slow = validateRelease(texts, { splits: ["dev"], isFastPathDisabled: true });
    expect(fast.ok).toBe(true);
    expect(JSON.stringify(fast)).toBe(JSON.stringify(slow));
    expect(JSON.stringify(fast.ok && fast.release.entities[0])).toBe(
      '{"qid":"Q1","name":"Ford","type":"Organization","aliases":["A"],"description":"d","description_wiki":"w"}',
    );
  });

  it("hand checks accept exactly what the schemas accept, and return what they return", () => {
    const entities: Record<string, unknown>[] = [
      { qid: "Q1", name: "A", type: "Place", aliases: [], description: "", description_wiki: "" },
      { qid: "Q1", name: " A ", type: "Other", aliases: ["", "b"], description: "x", description_wiki: "y", more: true },
      { qid: "Q01", name: "A", type: "Place", aliases: [], description: "", description_wiki: "" },
      { qid: "Q", name: "A", type: "Place", aliases: [], description: "", description_wiki: "" },
      { qid: "Q1", name: "\n", type: "Place", aliases: [], description: "", description_wiki: "" },
      { qid: "Q1", name: "A", type: "place", aliases: [], description: "", description_wiki: "" },
      { qid: "Q1", name: "A", type: "Place", aliases: [null], description: "", description_wiki: "" },
      { qid: "Q1", name: "A", type: "Place", aliases: [], description: "", description_wiki: undefined },
      { qid: "Q1", name: "A", type: "Place", aliases: [], description: "" },
    ];
    for (const value of entities) {
      const parsed = entitySchema.safeParse(value);
      expect(JSON.stringify(wellFormedEntity(value)), JSON.stringify(value)).toBe(JSON.stringify(parsed.success ? parsed.data : null));
    }
    const samples: Record<string, unknown>[] = [
      { id: "s", qid: "Q1", collection: "Labor", implicit_text: "t", explicit_text: "" },
      { id: "s", qid: "Q1", collection: "Labor", implicit_text: "t", explicit_text: "", name: "extra" },
      { id: " ", qid: "Q1", collection: "Labor", implicit_text: "t", explicit_text: "" },
      { id: "s", qid: "Q1", collection: "__proto__", implicit_text: "t", explicit_text: "" },
      { id: "s", qid: "Q1", collection: "Labor", implicit_text: "\t", explicit_text: "" },
      { id: "s", qid: "Q1", collection: "Labor", implicit_text: "t", explicit_text: "\u0000" },
      { id: "s", qid: "Q1", collection: "Labor", implicit_text: "t" },
    ];
    for (const value of samples) {
      const parsed = sampleSchema.safeParse(value);
      expect(JSON.stringify(wellFormedSample(value)), JSON.stringify(value)).toBe(JSON.stringify(parsed.success ? parsed.data : null));
    }
  });
});
