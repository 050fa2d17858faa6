import { describe, expect, it } from "vitest";
import { scanKbLines, scanSampleLines } from "@/lib/core/dataset/scan-release-lines";
import { validateRelease } from "@/lib/core/dataset/validate-release";

/**
 * The quick read of release files: the same entities and samples as the
 * validator for a valid file of the common form, and null (the caller then
 * runs the validator for its messages) for anything it must not decide.
 */

const ENTITY = { qid: "Q1", name: "Ford", type: "Organization", aliases: ["Ford Motor"], description: "", description_wiki: "" };
const entity = (fields: Record<string, unknown> = {}) => JSON.stringify({ ...ENTITY, ...fields });
const sample = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({ id: "s1", qid: "Q1", collection: "Labor", implicit_text: "I worked there.", explicit_text: "At Ford.", ...fields });
const bytes = (text: string) => Buffer.from(text, "utf8");
const KB_QIDS: ReadonlySet<string> = new Set(["Q1", "Q2"]);

describe("scanKbLines", () => {
  it("reads what the validator reads: BOM, CRLF, spaces, escapes, other key orders, no final newline", () => {
    const lines = [
      `\uFEFF${entity()}`,
      ` {"aliases": [], "type": "Place", "qid": "Q2", "name": "S\\u00e3o Paulo", "description": "a \\"city\\"", "description_wiki": ""} \r`,
      entity({ qid: "Q3", name: "Zürich", extra: 1 }),
    ];
    const text = lines.join("\n");
    const validated = validateRelease({ "dataset.json": '{"name":"n","version":"1","description":""}', "kb.jsonl": text, "dev.jsonl": sample() }, { splits: ["dev"] });
    expect(validated.ok).toBe(true);
    if (!validated.ok) return;
    expect(scanKbLines(bytes(text))).toEqual(validated.release.entities);
    expect(scanKbLines(bytes(`${text}\n`))).toEqual(validated.release.entities);
  });

  it("answers null for what the validator must report or decide", () => {
    const cases = [
      "",
      `${entity()}\n\n${entity({ qid: "Q2" })}`, // a blank line: not an error, but not for this path
      `${entity()}\n${entity()}`, // a duplicate qid
      `${entity()}, ${entity({ qid: "Q2" })}`, // two values on one line
      entity({ name: " " }),
      entity({ qid: "q1" }),
      entity({ type: "Planet" }),
      entity({ aliases: ["a\u0000b"] }),
      entity({ description: 5 }),
      "[1]",
      "{oops",
    ];
    for (const text of cases) {
      expect(scanKbLines(bytes(text)), text).toBeNull();
    }
    expect(scanKbLines(Buffer.from([0x7b, 0xc3, 0x28, 0x7d]))).toBeNull();
  });
});

describe("lines that are not whole values (a \"\\n\" read as \",\" inside a string, an object or an array)", () => {
  const meta = '{"name":"n","version":"1","description":""}';
  // Two lines, two values once "\n" is read as ",", but neither line is valid JSON on its own.
  const kbSplitInObject = [
    `${entity()}, {"qid": "Q2", "name": "Stanford", "type": "Place", "aliases": []`,
    '"description": "", "description_wiki": ""}',
  ].join("\n");
  // Three lines, three values: line 1 opens an array that line 2 closes, line 3 holds two entities.
  const kbSplitInArray = [
    `{"qid": "Q1", "name": "Ford", "type": "Organization", "aliases": [], "description": "", "description_wiki": "", "x": [{}`,
    "{}]}",
    `${entity({ qid: "Q2" })}, ${entity({ qid: "Q3" })}`,
  ].join("\n");
  // Three lines, three values: line 1 holds two entities, lines 2 and 3 one description "cars, trucks" cut in two.
  const kbSplitInString = [
    `${entity({ qid: "Q2" })}, ${entity({ qid: "Q3" })}`,
    '{"qid": "Q1", "name": "Ford", "type": "Organization", "aliases": [], "description": "cars',
    ' trucks", "description_wiki": ""}',
  ].join("\n");
  const devSplitInObject = [`${sample()}, {"id": "s2", "qid": "Q2"`, '"collection": "Labor", "implicit_text": "I was there.", "explicit_text": ""}'].join("\n");

  it("is refused by the validator line by line", () => {
    const problemLines = (kb: string, dev: string) => {
      const result = validateRelease({ "dataset.json": meta, "kb.jsonl": kb, "dev.jsonl": dev }, { splits: ["dev"] });
      return result.ok ? [] : result.problems.map((problem) => `${problem.file}:${problem.line}`);
    };
    // No KB line is valid, so the sample's qid is not in the KB either.
    expect(problemLines(kbSplitInObject, sample())).toEqual(["kb.jsonl:1", "kb.jsonl:2", "dev.jsonl:1"]);
    expect(problemLines(kbSplitInArray, sample())).toEqual(["kb.jsonl:1", "kb.jsonl:2", "kb.jsonl:3", "dev.jsonl:1"]);
    expect(problemLines(kbSplitInString, sample())).toEqual(["kb.jsonl:1", "kb.jsonl:2", "kb.jsonl:3", "dev.jsonl:1"]);
    expect(problemLines(entity(), devSplitInObject)).toEqual(["dev.jsonl:1", "dev.jsonl:2"]);
  });

  it("answers null, so the validator reports them", () => {
    expect(scanKbLines(bytes(kbSplitInObject))).toBeNull();
    expect(scanKbLines(bytes(`${kbSplitInArray}\n`))).toBeNull();
    expect(scanKbLines(bytes(kbSplitInString))).toBeNull();
    expect(scanSampleLines(bytes(devSplitInObject), KB_QIDS)).toBeNull();
    expect(scanSampleLines(bytes(devSplitInObject), null)).toBeNull();
  });

  it("still reads brackets, braces and escaped quotes inside strings", () => {
    const lines = [entity({ name: 'Ford [{"\\', aliases: ["}", "\\\"]"] }), entity({ qid: "Q2", description: "a \\\\" })];
    expect(scanKbLines(bytes(lines.join("\n")))?.map((found) => [found.qid, found.name, found.aliases, found.description])).toEqual([
      ["Q1", 'Ford [{"\\', ["}", "\\\"]"], ""],
      ["Q2", "Ford", ["Ford Motor"], "a \\\\"],
    ]);
  });
});

describe("scanSampleLines", () => {
  it("reads the samples in file order", () => {
    const text = `${sample()}\n${sample({ id: "s2", qid: "Q2", collection: "Veterans" })}\n`;
    expect(scanSampleLines(bytes(text), KB_QIDS)?.map((found) => [found.id, found.qid, found.collection])).toEqual([
      ["s1", "Q1", "Labor"],
      ["s2", "Q2", "Veterans"],
    ]);
  });

  it("answers null for duplicate ids, unknown qids, public samples and invalid fields", () => {
    const cases = [
      `${sample()}\n${sample()}`,
      sample({ qid: "Q9" }),
      JSON.stringify({ id: "s1", collection: "Labor", implicit_text: "I worked there." }),
      sample({ collection: "__proto__" }),
      sample({ implicit_text: "\u00a0" }),
      sample({ explicit_text: null }),
    ];
    for (const text of cases) {
      expect(scanSampleLines(bytes(text), KB_QIDS), text).toBeNull();
    }
  });
});
