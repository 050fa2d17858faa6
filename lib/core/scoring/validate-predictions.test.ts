import { describe, expect, it } from "vitest";
import {
  PredictionValidator,
  validatePredictionLines,
  validatePredictionText,
  type PredictionValidationResult,
  type PredictionValidatorOptions,
} from "./validate-predictions";

const ids = (count: number) => Array.from({ length: count }, (_, i) => `irc-${String(i + 1).padStart(6, "0")}`);
const KB = new Set(Array.from({ length: 200 }, (_, i) => `Q${i + 1}`));

function options(count: number, extra: Partial<PredictionValidatorOptions> = {}): PredictionValidatorOptions {
  return { sampleIds: ids(count), kbQids: KB, split: "dev", ...extra };
}

const open = (id: string, prediction: unknown) => JSON.stringify({ id, prediction });
const closed = (id: string, ranking: unknown) => JSON.stringify({ id, ranking });

function problemsOf(result: PredictionValidationResult) {
  if (result.ok) {
    throw new Error("expected an invalid file");
  }
  return result.problems;
}

describe("PredictionValidator (protocol section 4)", () => {
  describe("valid files", () => {
    it("accepts a BOM, CRLF line ends, blank lines, extra fields and an empty prediction", () => {
      const text = [
        `\uFEFF${open("irc-000001", "Pearl Harbor")}`,
        "",
        "   ",
        JSON.stringify({ id: "irc-000002", prediction: "", score: 0.3 }),
        open("irc-000003", "😀".repeat(512)), // 512 code points, 1024 UTF-16 units
        "",
      ].join("\r\n");
      const result = validatePredictionText(text, options(3));
      expect(result.ok).toBe(true);
      if (result.ok && result.track === "open") {
        expect(result.predictions.get("irc-000001")).toBe("Pearl Harbor");
        expect(result.predictions.get("irc-000002")).toBe("");
        expect(result.predictions.size).toBe(3);
        expect(result.lineCount).toBe(5);
      } else {
        throw new Error("expected an open-world result");
      }
    });

    it("accepts a closed-world file and reads the track from it", () => {
      const ranking100 = Array.from({ length: 100 }, (_, i) => `Q${i + 1}`);
      const text = [closed("irc-000001", ["Q5", "Q3"]), closed("irc-000002", ranking100)].join("\n");
      const result = validatePredictionText(text, options(2));
      expect(result.ok).toBe(true);
      if (result.ok && result.track === "closed") {
        expect(result.predictions.get("irc-000001")).toEqual(["Q5", "Q3"]);
        expect(result.predictions.get("irc-000002")).toHaveLength(100);
      } else {
        throw new Error("expected a closed-world result");
      }
    });

    it("validates an async sequence of lines", async () => {
      async function* lines() {
        yield open("irc-000002", "b");
        yield open("irc-000001", "a");
      }
      const result = await validatePredictionLines(lines(), options(2));
      expect(result.ok).toBe(true);
    });
  });

  describe("invalid open-world lines", () => {
    const lines = [
      open("irc-000001", "a"), // 1 valid, sets the track
      "not json", // 2
      "[1, 2]", // 3
      JSON.stringify({ prediction: "x" }), // 4
      JSON.stringify({ id: 5, prediction: "x" }), // 5
      open("irc-999999", "x"), // 6
      open("irc-000001", "b"), // 7 duplicate of line 1
      open("irc-000002", 7), // 8
      open("irc-000003", "x".repeat(513)), // 9
      closed("irc-000004", ["Q1"]), // 10
      JSON.stringify({ id: "irc-000005" }), // 11
      "null", // 12
      open("irc-000001", "c"), // 13 second duplicate of line 1
      open("nope", 5), // 14 two problems
    ];
    const result = validatePredictionText(lines.join("\n"), options(7));
    const problems = problemsOf(result);

    it("names every problem with its line", () => {
      expect(problems.map((problem) => problem.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 14, undefined]);
      expect(problems[0]?.message).toMatch(/^invalid JSON: /);
      expect(problems.slice(1, 13).map((problem) => problem.message)).toEqual([
        "not a JSON object (got an array)",
        'missing "id"',
        '"id" must be a string, got a number',
        'unknown id "irc-999999": not a sample of the dev split',
        'duplicate id "irc-000001" (first seen on line 1)',
        '"prediction" must be a string, got a number',
        '"prediction" is too long: 513 characters (at most 512)',
        'a closed-world line ("ranking") in a file for the open-world track (as set by line 1)',
        'missing "prediction"',
        "not a JSON object (got null)",
        'duplicate id "irc-000001" (first seen on line 1)',
        'unknown id "nope": not a sample of the dev split',
      ]);
      expect(problems[13]?.message).toBe('"prediction" must be a string, got a number');
    });

    it("counts and names the missing samples", () => {
      // Seen: 1 (line 1), 2 (line 8), 3 (line 9), 4 (line 10), 5 (line 11); missing 6 and 7.
      expect(problems[14]).toEqual({ message: '2 samples of the dev split missing: "irc-000006", "irc-000007"' });
      expect(result.ok ? 0 : result.problemCount).toBe(15);
      expect(result.ok ? null : result.track).toBe("open");
    });
  });

  describe("invalid closed-world lines", () => {
    const ranking101 = Array.from({ length: 101 }, (_, i) => `Q${i + 1}`);
    const lines = [
      closed("irc-000001", ["Q1", "Q2"]), // 1
      closed("irc-000002", "Q1"), // 2
      closed("irc-000003", []), // 3
      closed("irc-000004", ranking101), // 4
      closed("irc-000005", ["Q1", "Q2", "Q1"]), // 5
      closed("irc-000006", ["Q1", "Q9999", "Q8888"]), // 6
      closed("irc-000007", ["Q1", 5, null]), // 7
      open("irc-000008", "x"), // 8
      JSON.stringify({ id: "irc-000009", prediction: "x", ranking: ["Q1"] }), // 9
      closed("irc-000010", ["Q9999", "Q9999"]), // 10 repeat outside the KB
    ];
    const problems = problemsOf(validatePredictionText(lines.join("\n"), options(10, { track: "closed" })));

    it("names every problem with its line", () => {
      expect(problems).toEqual([
        { line: 2, message: '"ranking" must be an array of QIDs, got a string' },
        { line: 3, message: '"ranking" is empty (it needs 1 to 100 QIDs)' },
        { line: 4, message: '"ranking" is too long: 101 QIDs (at most 100)' },
        { line: 5, message: '"ranking" repeats "Q1" (entries 1 and 3)' },
        { line: 6, message: '"ranking" entry 2 "Q9999" is not in the KB (and 1 more QID not in the KB)' },
        { line: 7, message: '"ranking" entry 2 must be a QID string, got a number (and 1 more)' },
        { line: 8, message: 'an open-world line ("prediction") in a file for the closed-world track (as requested)' },
        { line: 9, message: 'has both "prediction" and "ranking"; a file is for one track' },
        { line: 10, message: '"ranking" entry 1 "Q9999" is not in the KB (and 1 more QID not in the KB)' },
        { line: 10, message: '"ranking" repeats "Q9999" (entries 1 and 2)' },
      ]);
    });
  });

  describe("track detection", () => {
    it("takes the track from the first line with prediction or ranking", () => {
      const lines = [JSON.stringify({ id: "irc-000001" }), closed("irc-000002", ["Q1"]), open("irc-000003", "x")];
      const result = validatePredictionText(lines.join("\n"), options(3));
      expect(result.ok ? null : result.track).toBe("closed");
      expect(problemsOf(result)).toEqual([
        { line: 1, message: 'missing "prediction" or "ranking"' },
        { line: 3, message: 'an open-world line ("prediction") in a file for the closed-world track (as set by line 2)' },
      ]);
    });

    it("honours a given track from line 1", () => {
      const validator = new PredictionValidator(options(1, { track: "open" }));
      validator.addLine(closed("irc-000001", ["Q1"]), 1);
      expect(validator.detectedTrack).toBe("open");
      expect(problemsOf(validator.finish())[0]).toEqual({
        line: 1,
        message: 'a closed-world line ("ranking") in a file for the open-world track (as requested)',
      });
    });
  });

  describe("whole-file problems", () => {
    it("rejects an empty file and names the first few missing samples", () => {
      for (const text of ["", "\n\n  \r\n"]) {
        expect(problemsOf(validatePredictionText(text, options(7)))).toEqual([
          { message: "the file has no predictions" },
          {
            message:
              '7 samples of the dev split missing: "irc-000001", "irc-000002", "irc-000003", "irc-000004", "irc-000005", …',
          },
        ]);
      }
    });

    it("lists at most 50 problems, then how many more", () => {
      const lines = Array.from({ length: 60 }, () => "{oops");
      const result = validatePredictionText(lines.join("\n"), options(1));
      const problems = problemsOf(result);
      expect(problems).toHaveLength(52);
      expect(problems.slice(0, 50).map((problem) => problem.line)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(problems[50]).toEqual({ message: "... and 10 more problems" });
      expect(problems[51]).toEqual({ message: '1 sample of the dev split missing: "irc-000001"' });
      expect(result.ok ? 0 : result.problemCount).toBe(61);
    });

    it("says 1 more problem in the singular", () => {
      const lines = Array.from({ length: 3 }, () => "{oops");
      const problems = problemsOf(validatePredictionText(lines.join("\n"), options(1, { maxListedProblems: 2 })));
      expect(problems[2]).toEqual({ message: "... and 1 more problem" });
    });

    it("ignores a BOM only at the start of the file", () => {
      const text = [open("irc-000001", "a"), `\uFEFF${open("irc-000002", "b")}`].join("\n");
      expect(problemsOf(validatePredictionText(text, options(2)))[0]?.line).toBe(2);
    });
  });

  describe("v1.1 line rules: bytes, Unicode and length", () => {
    const utf8 = (text: string) => new TextEncoder().encode(text);

    /** Feeds byte lines (null: not kept, with the given length) and returns the verdict. */
    function validateBytes(lines: readonly (Uint8Array | { tooLong: number })[], count: number, extra: Partial<PredictionValidatorOptions> = {}) {
      const validator = new PredictionValidator(options(count, extra));
      lines.forEach((line, index) => {
        if (line instanceof Uint8Array) {
          validator.addLineBytes(line, line.length, index + 1);
        } else {
          validator.addLineBytes(null, line.tooLong, index + 1);
        }
      });
      return validator.finish();
    }

    it("reports a line that is not valid UTF-8 on its line, without repairing it", () => {
      // {"id":"irc-000002","prediction":"<C3 28>"}: 0xC3 must be followed by 0x80..0xBF.
      const bad = Uint8Array.from([...utf8('{"id":"irc-000002","prediction":"'), 0xc3, 0x28, ...utf8('"}')]);
      const result = validateBytes([utf8(open("irc-000001", "a")), bad, utf8(open("irc-000003", "c"))], 3);
      expect(problemsOf(result)).toEqual([
        { line: 2, message: "not valid UTF-8" },
        { message: '1 sample of the dev split missing: "irc-000002"' },
      ]);
    });

    it("refuses a line over 64 KiB unparsed, whether the reader kept it or not", () => {
      const overLimit = utf8(open("irc-000001", "x".repeat(65_537)));
      const result = validateBytes([overLimit, { tooLong: 200_000 }], 2);
      expect(problemsOf(result).slice(0, 2)).toEqual([
        // {"id":"irc-000001","prediction":"…"}: 35 bytes of JSON around the 65,537 x's.
        { line: 1, message: `line is longer than 64 KiB (${65_537 + 35} bytes)` },
        { line: 2, message: "line is longer than 64 KiB (200000 bytes)" },
      ]);
    });

    it("accepts a line of exactly 65,536 bytes (then judges its content)", () => {
      // 35 bytes of JSON around the prediction: 65,501 x's make 65,536 bytes; the prediction is then too long.
      const line = utf8(open("irc-000001", "x".repeat(65_501)));
      expect(line.length).toBe(65_536);
      expect(problemsOf(validateBytes([line], 1))).toEqual([
        { line: 1, message: '"prediction" is too long: 65501 characters (at most 512)' },
      ]);
    });

    it("reports a lone surrogate in the id, the prediction or a ranking entry", () => {
      const text = [
        '{"id": "\\ud83d", "prediction": "a"}',
        '{"id": "irc-000002", "prediction": "Pearl \\ud83d Harbor"}',
        '{"id": "irc-000003", "prediction": "\\ude00"}',
      ].join("\n");
      expect(problemsOf(validatePredictionText(text, options(3))).slice(0, 3)).toEqual([
        { line: 1, message: '"id" is not well-formed Unicode (lone surrogate)' },
        { line: 2, message: '"prediction" is not well-formed Unicode (lone surrogate)' },
        { line: 3, message: '"prediction" is not well-formed Unicode (lone surrogate)' },
      ]);
      const ranking = '{"id": "irc-000001", "ranking": ["Q1", "Q2\\ud83d"]}';
      expect(problemsOf(validatePredictionText(ranking, options(1)))).toEqual([
        { line: 1, message: '"ranking" entry 2 is not well-formed Unicode (lone surrogate)' },
      ]);
    });

    it("accepts a surrogate pair written as JSON escapes", () => {
      const result = validatePredictionText('{"id": "irc-000001", "prediction": "\\ud83d\\ude00"}', options(1));
      expect(result.ok && result.track === "open" ? result.predictions.get("irc-000001") : null).toBe("\u{1F600}");
    });

    it("ignores any number of blank lines anywhere, as bytes too", () => {
      const blank = Array.from({ length: 120 }, () => utf8(""));
      const lines = [...blank, utf8(open("irc-000001", "a")), utf8("  \t"), ...blank, utf8(open("irc-000002", "b")), ...blank];
      const result = validateBytes(lines, 2);
      expect(result.ok).toBe(true);
    });

    it("ignores a BOM in line 1's bytes only", () => {
      const bom = [0xef, 0xbb, 0xbf];
      const result = validateBytes([Uint8Array.from([...bom, ...utf8(open("irc-000001", "a"))]), utf8(open("irc-000002", "b"))], 2);
      expect(result.ok).toBe(true);
      const second = validateBytes([utf8(open("irc-000001", "a")), Uint8Array.from([...bom, ...utf8(open("irc-000002", "b"))])], 2);
      expect(problemsOf(second)[0]?.line).toBe(2);
    });
  });
});
