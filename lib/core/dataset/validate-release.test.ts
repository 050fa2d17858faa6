import { describe, expect, it } from "vitest";
import { validateRelease, type ReleaseTexts } from "@/lib/core/dataset/validate-release";

const META = JSON.stringify({ name: "irc-bench", version: "1.0", description: "fixture" });

function entity(qid: string, name: string, type: string, aliases: string[] = []): string {
  return JSON.stringify({ qid, name, type, aliases, description: "", description_wiki: "" });
}

function sample(id: string, qid: string, implicit = "I remember that place well.", collection = "Labor"): string {
  return JSON.stringify({ id, qid, collection, implicit_text: implicit, explicit_text: "explicit" });
}

const KB = [
  entity("Q1", "Ford", "Organization", ["Ford Motor Company"]),
  entity("Q2", "U.S. Army", "Military Unit", ["USA"]),
  entity("Q3", "Stanford", "Place"),
  entity("Q4", "Rosa Parks", "Person"),
];

function fixture(overrides: ReleaseTexts = {}): ReleaseTexts {
  return {
    "dataset.json": META,
    "kb.jsonl": KB,
    "train.jsonl": [sample("s1", "Q1", "I worked at a car plant near the river."), sample("s2", "Q3")],
    "dev.jsonl": [sample("s3", "Q2")],
    "test.jsonl": [sample("s4", "Q4")],
    ...overrides,
  };
}

function problemsOf(texts: ReleaseTexts, splits?: ("train" | "dev" | "test")[]) {
  const result = validateRelease(texts, splits === undefined ? {} : { splits });
  if (result.ok) {
    throw new Error("expected the release to be rejected");
  }
  return result.problems;
}

describe("validateRelease: a valid release", () => {
  it("loads meta, entities and the three splits with no leakage", () => {
    const result = validateRelease(fixture());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.release.meta).toEqual({ name: "irc-bench", version: "1.0", description: "fixture" });
    expect(result.release.entities.map((e) => e.qid)).toEqual(["Q1", "Q2", "Q3", "Q4"]);
    expect(result.release.samples.train.map((s) => s.id)).toEqual(["s1", "s2"]);
    expect(result.release.samples.dev.map((s) => s.id)).toEqual(["s3"]);
    expect(result.release.samples.test.map((s) => s.id)).toEqual(["s4"]);
    expect(result.leakage).toEqual([]);
  });

  it("ignores blank lines and a leading BOM, accepts CRLF, and keeps line numbers", () => {
    const train = `\uFEFF${sample("s1", "Q1")}\r\n\r\n   \r\n${sample("s2", "Q3")}\r\n`;
    const result = validateRelease(fixture({ "train.jsonl": train, "dataset.json": `\uFEFF${META}\n` }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.release.samples.train.map((s) => s.id)).toEqual(["s1", "s2"]);

    const broken = `\uFEFF${sample("s1", "Q1")}\r\n\r\n   \r\n{oops\r\n`;
    expect(problemsOf(fixture({ "train.jsonl": broken }))).toEqual([
      { file: "train.jsonl", line: 4, message: expect.stringMatching(/^malformed JSON: /) as unknown as string },
    ]);
  });

  it("validates only the requested splits and leaves the others empty", () => {
    const result = validateRelease(
      { "dataset.json": META, "kb.jsonl": KB, "dev.jsonl": [sample("s3", "Q2")], "train.jsonl": ["not json"] },
      { splits: ["dev"] },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.release.samples).toEqual({ train: [], dev: [expect.objectContaining({ id: "s3" })], test: [] });
  });

  it("accepts an empty explicit_text and extra fields", () => {
    const line = JSON.stringify({ id: "s9", qid: "Q4", collection: "Civil Rights", implicit_text: "x", explicit_text: "", extra: 1 });
    expect(validateRelease(fixture({ "test.jsonl": [line] })).ok).toBe(true);
  });
});

describe("validateRelease: rejections name the file and line", () => {
  it("malformed JSON", () => {
    expect(problemsOf(fixture({ "train.jsonl": [sample("s1", "Q1"), '{"id": "s2",'] }))).toEqual([
      { file: "train.jsonl", line: 2, message: expect.stringMatching(/^malformed JSON: /) as unknown as string },
    ]);
  });

  it("a line that is not an object", () => {
    expect(problemsOf(fixture({ "kb.jsonl": [...KB, "[1, 2]", '"Q5"', "null"] }))).toEqual([
      { file: "kb.jsonl", line: 5, message: "expected a JSON object, got an array" },
      { file: "kb.jsonl", line: 6, message: "expected a JSON object, got a string" },
      { file: "kb.jsonl", line: 7, message: "expected a JSON object, got null" },
    ]);
  });

  it("missing and mistyped fields, naming the field and what was expected", () => {
    const kb = [
      ...KB,
      JSON.stringify({ qid: "Q5", type: "Place", aliases: "Ford", description: "", description_wiki: "" }),
      JSON.stringify({ qid: "Q6", name: "", type: "Place", aliases: ["a", 3], description: null, description_wiki: "" }),
      JSON.stringify({ qid: "X7", name: "Seven", type: "Place", aliases: [], description: "", description_wiki: "" }),
    ];
    const train = [
      sample("s1", "Q1"),
      JSON.stringify({ id: "s2", qid: "Q3", collection: "Labor", explicit_text: "" }),
      JSON.stringify({ id: 5, qid: "Q3", collection: "", implicit_text: "x", explicit_text: 1 }),
    ];
    expect(problemsOf(fixture({ "kb.jsonl": kb, "train.jsonl": train }))).toEqual([
      { file: "kb.jsonl", line: 5, message: 'missing field "name" (expected a string)' },
      { file: "kb.jsonl", line: 5, message: 'field "aliases" must be an array, got a string' },
      { file: "kb.jsonl", line: 6, message: 'field "name": must not be empty or blank' },
      { file: "kb.jsonl", line: 6, message: 'field "aliases[1]" must be a string, got a number' },
      { file: "kb.jsonl", line: 6, message: 'field "description" must be a string, got null' },
      { file: "kb.jsonl", line: 7, message: 'field "qid" must be a Wikidata QID such as Q52418 (got "X7")' },
      { file: "train.jsonl", line: 2, message: 'missing field "implicit_text" (expected a string)' },
      { file: "train.jsonl", line: 3, message: 'field "id" must be a string, got a number' },
      { file: "train.jsonl", line: 3, message: 'field "collection": must not be empty or blank' },
      { file: "train.jsonl", line: 3, message: 'field "explicit_text" must be a string, got a number' },
    ]);
  });

  it("an unknown type, listing the seven", () => {
    const kb = [...KB, entity("Q5", "Ardenhill Mill", "Building")];
    expect(problemsOf(fixture({ "kb.jsonl": kb }))).toEqual([
      {
        file: "kb.jsonl",
        line: 5,
        message: 'field "type" is "Building"; expected one of: Place, Organization, Person, Event, Work, Military Unit, Other',
      },
    ]);
  });

  it("a duplicate qid in kb.jsonl, naming the first line", () => {
    const kb = [...KB, "", entity("Q2", "United States Army", "Organization")];
    expect(problemsOf(fixture({ "kb.jsonl": kb }))).toEqual([
      { file: "kb.jsonl", line: 6, message: 'duplicate qid "Q2" (first seen on line 2)' },
    ]);
  });

  it("a duplicate sample id, within a split and across splits", () => {
    const train = [sample("s1", "Q1"), sample("s2", "Q3"), sample("s1", "Q1")];
    const test = [sample("s4", "Q4"), sample("s2", "Q4")];
    expect(problemsOf(fixture({ "train.jsonl": train, "test.jsonl": test }))).toEqual([
      { file: "train.jsonl", line: 3, message: 'duplicate id "s1" (first seen on line 1)' },
      { file: "test.jsonl", line: 2, message: 'duplicate id "s2" (first seen on train.jsonl:2)' },
    ]);
  });

  it("a sample whose qid is not in the KB", () => {
    const dev = [sample("s3", "Q2"), sample("s5", "Q99")];
    expect(problemsOf(fixture({ "dev.jsonl": dev }))).toEqual([
      { file: "dev.jsonl", line: 2, message: 'qid "Q99" is not in kb.jsonl' },
    ]);
  });

  it("an entity in more than one split, reported on the later split's line", () => {
    const dev = [sample("s3", "Q2"), sample("s5", "Q1")];
    const test = [sample("s4", "Q4"), sample("s6", "Q2"), sample("s7", "Q1")];
    expect(problemsOf(fixture({ "dev.jsonl": dev, "test.jsonl": test }))).toEqual([
      {
        file: "dev.jsonl",
        line: 2,
        message: 'entity "Q1" is also in the train split (train.jsonl:1); splits are entity-level and must not share entities',
      },
      {
        file: "test.jsonl",
        line: 2,
        message: 'entity "Q2" is also in the dev split (dev.jsonl:1); splits are entity-level and must not share entities',
      },
      {
        file: "test.jsonl",
        line: 3,
        message: 'entity "Q1" is also in the train split (train.jsonl:1); splits are entity-level and must not share entities',
      },
    ]);
  });

  it("dataset.json problems", () => {
    expect(problemsOf(fixture({ "dataset.json": JSON.stringify({ name: "irc-bench", description: 3 }) }))).toEqual([
      { file: "dataset.json", message: 'missing field "version" (expected a string)' },
      { file: "dataset.json", message: 'field "description" must be a string, got a number' },
    ]);
    expect(problemsOf(fixture({ "dataset.json": '{\n  "name": "irc-bench",\n  "version": 1.0,\n}\n' }))).toEqual([
      { file: "dataset.json", line: 4, message: expect.stringMatching(/^malformed JSON: /) as unknown as string },
    ]);
    expect(problemsOf(fixture({ "dataset.json": "[]" }))).toEqual([
      { file: "dataset.json", message: "expected a JSON object, got an array" },
    ]);
  });

  it("missing and empty files", () => {
    const texts = fixture({ "dev.jsonl": "\n\n" });
    delete texts["test.jsonl"];
    delete texts["dataset.json"];
    expect(problemsOf(texts)).toEqual([
      { file: "dataset.json", message: "missing file" },
      { file: "dev.jsonl", message: "no samples: the file is empty" },
      { file: "test.jsonl", message: "missing file" },
    ]);
  });

  it("does not flag every sample's qid when kb.jsonl itself is missing", () => {
    const texts = fixture();
    delete texts["kb.jsonl"];
    expect(problemsOf(texts)).toEqual([{ file: "kb.jsonl", message: "missing file" }]);
  });

  it("a public test file (no gold) is not a gold release", () => {
    const publicLine = JSON.stringify({ id: "s4", collection: "Labor", implicit_text: "x" });
    const problems = problemsOf(fixture({ "test.jsonl": [publicLine] }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: "test.jsonl", line: 1 });
    expect(problems[0]?.message).toContain("public (participant) file");
    expect(problems[0]?.message).toContain("a gold release needs qid and explicit_text");
  });

  it("lists every problem of every file, in file then line order", () => {
    const problems = problemsOf({
      "dataset.json": JSON.stringify({ name: "", version: "1.0", description: "" }),
      "kb.jsonl": [...KB, entity("Q1", "Ford again", "Organization"), entity("Q8", "Eight", "Thing")],
      "train.jsonl": [sample("s1", "Q1"), "oops", sample("s2", "Q77")],
      "dev.jsonl": [sample("s1", "Q2"), sample("s3", "Q1")],
      "test.jsonl": [JSON.stringify({ id: "s4", qid: "Q4", collection: "Labor", implicit_text: "", explicit_text: "" })],
    });
    expect(problems.map((p) => [p.file, p.line])).toEqual([
      ["dataset.json", undefined],
      ["kb.jsonl", 5],
      ["kb.jsonl", 6],
      ["train.jsonl", 2],
      ["train.jsonl", 3],
      ["dev.jsonl", 1],
      ["dev.jsonl", 2],
      ["test.jsonl", 1],
    ]);
    expect(problems.map((p) => p.message)).toEqual([
      'field "name": must not be empty or blank',
      'duplicate qid "Q1" (first seen on line 1)',
      'field "type" is "Thing"; expected one of: Place, Organization, Person, Event, Work, Military Unit, Other',
      expect.stringMatching(/^malformed JSON/),
      'qid "Q77" is not in kb.jsonl',
      'duplicate id "s1" (first seen on train.jsonl:1)',
      'entity "Q1" is also in the train split (train.jsonl:1); splits are entity-level and must not share entities',
      'field "implicit_text": must not be empty or blank',
    ]);
  });
});

describe("validateRelease: leakage report", () => {
  it("reports, without rejecting, implicit texts that contain the name or an alias", () => {
    const train = [sample("s1", "Q1", "I worked at ford motor company for years."), sample("s2", "Q3", "I studied at stanford.")];
    const dev = [sample("s3", "Q2", "I enlisted in the U.S. Army in 1942.")];
    const test = [sample("s4", "Q4", "A woman was arrested in Montgomery.")];
    const result = validateRelease(fixture({ "train.jsonl": train, "dev.jsonl": dev, "test.jsonl": test }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.leakage).toEqual([
      { file: "train.jsonl", line: 1, id: "s1", qid: "Q1", matched: "Ford Motor Company" },
      { file: "train.jsonl", line: 2, id: "s2", qid: "Q3", matched: "Stanford" },
      { file: "dev.jsonl", line: 1, id: "s3", qid: "Q2", matched: "U.S. Army" },
    ]);
  });

  it("does not report a name inside a longer word", () => {
    const train = [sample("s1", "Q1", "I was afforded a place at Stanford."), sample("s2", "Q3")];
    const result = validateRelease(fixture({ "train.jsonl": train }));
    expect(result.ok && result.leakage).toEqual([]);
  });
});

describe("validateRelease: texts the platform cannot store or score", () => {
  it("refuses a blank name, a NUL character and the collection name __proto__ at their lines", () => {
    const kb = [...KB.slice(0, 3), entity("Q4", "   ", "Person")];
    const train = [sample("s1", "Q1", "I worked at a car plant.\u0000"), sample("s2", "Q3", "I remember it.", "__proto__")];
    expect(problemsOf(fixture({ "kb.jsonl": kb, "train.jsonl": train }))).toEqual([
      { file: "kb.jsonl", line: 4, message: 'field "name": must not be empty or blank' },
      { file: "train.jsonl", line: 1, message: 'field "implicit_text": must not contain a NUL character (\\u0000)' },
      { file: "train.jsonl", line: 2, message: 'field "collection": must not be "__proto__"' },
    ]);
  });
});
