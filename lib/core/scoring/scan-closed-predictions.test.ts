import { describe, expect, it } from "vitest";
import { validatePredictionFile } from "@/lib/platform/io/validate-prediction-file";
import { synthesizePredictions } from "@/testing/synthetic/synth-predictions";
import { synthesizeRelease } from "@/testing/synthetic/synth-release";
import { buildGold, buildKbIndex, type GoldRecord, type KbIndex } from "./gold";
import { closedOutcomesOf, parseClosedRankings, prepareClosedScan, rankParsedClosed, scanClosedPredictions } from "./scan-closed-predictions";
import { computeOutcomes } from "./track-predictions";
import { validatePredictionText } from "./validate-predictions";

async function* chunksOf(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

const KB = buildKbIndex([
  { qid: "Q1", name: "Ford", type: "Organization", aliases: ["Ford Motor Company"] },
  { qid: "Q2", name: "U.S. Army", type: "Military Unit", aliases: [] },
  { qid: "Q3", name: "Stanford", type: "Place", aliases: [] },
  { qid: "Q4", name: "Ford Motor Company", type: "Organization", aliases: [] },
  { qid: "Q10", name: "Elsewhere", type: "Place", aliases: [] },
]);
const GOLD = buildGold(
  [
    { id: "s1", qid: "Q1", collection: "Labor" },
    { id: "s2", qid: "Q2", collection: "Veterans" },
    { id: "s3", qid: "Q3", collection: "Academic" },
  ],
  KB,
);

const VALID = ['{"id": "s1", "ranking": ["Q4", "Q1"]}', '{"id": "s2", "ranking": ["Q2"]}', '{"id": "s3", "ranking": ["Q1", "Q2", "Q10"]}'];

function scan(text: string, gold: readonly GoldRecord[] = GOLD, kb: KbIndex = KB): Uint8Array | null {
  return scanClosedPredictions(Buffer.from(text, "utf8"), prepareClosedScan(gold, kb));
}

/** What validating and scoring the file gives: null when it is invalid. */
function validated(text: string, gold: readonly GoldRecord[] = GOLD, kb: KbIndex = KB): Uint8Array | null {
  const result = validatePredictionText(text, { sampleIds: gold.map((sample) => sample.id), kbQids: kb });
  return result.ok ? computeOutcomes({ ...result, gold, kb }).codes : null;
}

describe("scanClosedPredictions", () => {
  it("gives the gold rank and alias_hit@1 of every sample, in gold order", () => {
    // s1: gold at rank 2, and the top entity's name is an alias of the gold (0x80); s2: rank 1, the gold itself; s3: not ranked.
    expect(Array.from(scan(`${VALID.join("\n")}\n`) ?? [])).toEqual([0x80 | 2, 0x80 | 1, 0]);
    expect(Array.from(scan([VALID[2], VALID[0], VALID[1]].join("\n")) ?? [])).toEqual([0x80 | 2, 0x80 | 1, 0]);
  });

  it("reads the spellings the validator reads the same way: BOM, CRLF, blank lines, spacing, key order", () => {
    const expected = [0x80 | 2, 0x80 | 1, 0];
    for (const text of [
      `\uFEFF${VALID.join("\r\n")}\r\n`,
      `\n  \n${VALID.join("\n\n")}\n\t\n`,
      '{"ranking":["Q4","Q1"],"id":"s1"}\n{ "id" :"s2" ,\t"ranking" : [ "Q2" ] }  \n{"id":"s3","ranking":["Q1" ,"Q2",  "Q10"]}',
    ]) {
      expect(Array.from(scan(text) ?? []), JSON.stringify(text)).toEqual(expected);
      expect(Array.from(validated(text) ?? []), JSON.stringify(text)).toEqual(expected);
    }
  });

  it("agrees with the validator when a gold entity's QID is not canonical (Q07: no ranking can name it as the scanner reads)", () => {
    const kb = buildKbIndex([
      { qid: "Q07", name: "Ford", type: "Organization", aliases: [] },
      { qid: "Q1", name: "Ford", type: "Organization", aliases: [] },
      { qid: "Q2", name: "Stanford", type: "Place", aliases: [] },
    ]);
    const gold = buildGold([{ id: "s1", qid: "Q07", collection: "Labor" }, { id: "s2", qid: "Q2", collection: "Academic" }], kb);
    const text = '{"id": "s1", "ranking": ["Q1", "Q2"]}\n{"id": "s2", "ranking": ["Q1", "Q2"]}';
    // s1: not ranked, but the top entity has the gold's name (alias_hit@1); s2: rank 2.
    expect(Array.from(scan(text, gold, kb) ?? [])).toEqual([0x80, 2]);
    expect(Array.from(validated(text, gold, kb) ?? [])).toEqual([0x80, 2]);
  });

  it("leaves every invalid file and every unusual spelling to the validator", () => {
    const [s1, s2, s3] = VALID as [string, string, string];
    const cases: Record<string, string> = {
      "a missing sample": [s1, s2].join("\n"),
      "a duplicate id": [s1, s2, s3, s1].join("\n"),
      "an unknown id": [s1, s2, s3, '{"id": "s9", "ranking": ["Q1"]}'].join("\n"),
      "a QID outside the KB": [s1, s2, '{"id": "s3", "ranking": ["Q5"]}'].join("\n"),
      "a repeated QID": [s1, s2, '{"id": "s3", "ranking": ["Q1", "Q2", "Q1"]}'].join("\n"),
      "an empty ranking": [s1, s2, '{"id": "s3", "ranking": []}'].join("\n"),
      "101 QIDs": [s1, s2, JSON.stringify({ id: "s3", ranking: Array.from({ length: 101 }, (_, i) => `Q${i + 1}`) })].join("\n"),
      "an open-world line": [s1, s2, '{"id": "s3", "prediction": "Stanford"}'].join("\n"),
      "an escaped QID": [s1, s2, '{"id": "s3", "ranking": ["Q\\u0031"]}'].join("\n"),
      "an escaped id": [s1, s2, '{"id": "s\\u0033", "ranking": ["Q1"]}'].join("\n"),
      "a QID with a leading zero": [s1, s2, '{"id": "s3", "ranking": ["Q01"]}'].join("\n"),
      "another key": [s1, s2, '{"id": "s3", "ranking": ["Q1"], "note": 1}'].join("\n"),
      "a key twice": [s1, s2, '{"id": "s3", "id": "s3", "ranking": ["Q1"]}'].join("\n"),
      "a number for an id": [s1, s2, '{"id": 3, "ranking": ["Q1"]}'].join("\n"),
      "text after the object": [s1, s2, `${s3} x`].join("\n"),
      "a line cut in two": [s1, s2, '{"id": "s3", "ranking": ["Q1",', '"Q2"]}'].join("\n"),
      "a carriage return inside a line": [s1, s2, '{"id": "s3",\r"ranking": ["Q1"]}'].join("\n"),
      "not JSON": [s1, s2, s3, "nope"].join("\n"),
      "an empty file": "",
    };
    for (const [name, text] of Object.entries(cases)) {
      expect(scan(text), name).toBeNull();
    }
  });

  it("counts a leading BOM in line 1's 64 KiB, as the reader and the validator do", async () => {
    const [s1, s2, s3] = VALID as [string, string, string];
    const withBom = (line1: string) => Buffer.from(`\uFEFF${[line1, s2, s3].join("\n")}\n`, "utf8");
    const options = { sampleIds: GOLD.map((sample) => sample.id), kbQids: KB };
    // 3 bytes of BOM + 65,533 bytes of line: exactly 64 KiB, a valid file.
    const fits = withBom(s1.padEnd(65_533));
    expect(Array.from(scanClosedPredictions(fits, prepareClosedScan(GOLD, KB)) ?? [])).toEqual([0x80 | 2, 0x80 | 1, 0]);
    expect((await validatePredictionFile(chunksOf(fits), options)).ok).toBe(true);
    // One byte more, or a line of 64 KiB after the BOM: line 1 is over the limit, the file is invalid.
    for (const [length, bytes] of [
      [65_534, 65_537],
      [65_536, 65_539],
    ] as const) {
      const file = withBom(s1.padEnd(length));
      expect(scanClosedPredictions(file, prepareClosedScan(GOLD, KB)), String(length)).toBeNull();
      expect(parseClosedRankings(file), String(length)).toBeNull();
      const result = await validatePredictionFile(chunksOf(file), options);
      expect(result.ok ? [] : result.problems[0]).toEqual({ line: 1, message: `line is longer than 64 KiB (${bytes} bytes)` });
    }
  });

  it("agrees with validating and scoring on synthesized files of the small synthetic release", () => {
    const release = synthesizeRelease({ seed: 7, size: "small" });
    const kb = buildKbIndex(release.entities);
    const gold = buildGold(release.samples.test, kb);
    for (const [accuracy, seed] of [
      [0, 1],
      [0.35, 2],
      [1, 3],
    ] as const) {
      const lines = synthesizePredictions({ samples: release.samples.test, entities: release.entities, track: "closed", accuracy, seed });
      const text = `${lines.join("\n")}\n`;
      const expected = validated(text, gold, kb);
      expect(expected).not.toBeNull();
      expect(scan(text, gold, kb)).toEqual(expected);
    }
  });
});

describe("parseClosedRankings and closedOutcomesOf (the scanner in two halves, the first without KB or gold)", () => {
  const parse = (text: string) => parseClosedRankings(Buffer.from(text, "utf8"));

  it("gives each line's id and QID numbers, whether or not the KB has them", () => {
    const parsed = parse('{"id": "a", "ranking": ["Q7", "Q123456789"]}\n\n{"ranking": ["Q7"], "id": "b"}\n');
    expect(parsed?.ids).toEqual(["a", "b"]);
    expect(Array.from(parsed?.rankingStarts ?? [])).toEqual([0, 2, 3]);
    expect(Array.from(parsed?.qidNumbers ?? [])).toEqual([7, 123456789, 7]);
  });

  it("parses into a scratch array left over from another file as into a new one (a scan thread reuses it file after file)", () => {
    const text = '{"id": "a", "ranking": ["Q7", "Q123456789"]}\n{"ranking": ["Q7"], "id": "b"}\n';
    const scratch = new Int32Array(4096).fill(99);
    const parsed = parseClosedRankings(Buffer.from(text, "utf8"), scratch);
    expect(parsed?.qidNumbers.buffer).toBe(scratch.buffer);
    expect(Array.from(parsed?.qidNumbers ?? [])).toEqual([7, 123456789, 7]);
    expect(parsed?.ids).toEqual(["a", "b"]);
    // Too small a scratch array is not used.
    const small = parseClosedRankings(Buffer.from(text, "utf8"), new Int32Array(2));
    expect(Array.from(small?.qidNumbers ?? [])).toEqual([7, 123456789, 7]);
  });

  it("takes 100 QIDs but not 101, and leaves a QID repeated within a line to the second half, which refuses it", () => {
    const line = (ranking: string[]) => JSON.stringify({ id: "s1", ranking });
    const hundred = Array.from({ length: 100 }, (_, i) => `Q${(i + 1) * 256}`);
    expect(parse(line(hundred))?.qidNumbers.length).toBe(100);
    expect(parse(line([...hundred, "Q1"]))).toBeNull();
    // The first half keeps the numbers as written; ranking them finds the repeat.
    expect(Array.from(parse(line(["Q4", "Q1", "Q4"]))?.qidNumbers ?? [])).toEqual([4, 1, 4]);
    const [, s2, s3] = VALID as [string, string, string];
    for (const repeated of [["Q4", "Q1", "Q4"], ["Q1", "Q1"], ["Q10", "Q2", "Q3", "Q10"]]) {
      const text = [line(repeated), s2, s3].join("\n");
      expect(scan(text), text).toBeNull();
      expect(validated(text), text).toBeNull();
    }
    // The same QID on two lines is no repeat: s2 and s3 both rank Q2 (s1 ranks Q1 then Q4, gold at rank 1).
    expect(Array.from(scan([line(["Q1", "Q4"]), s2, s3].join("\n")) ?? [])).toEqual([0x80 | 1, 0x80 | 1, 0]);
  });

  it("finds a repeat of a QID whose KB index lies past twice the number of canonical QIDs (a KB of mostly non-canonical QIDs)", () => {
    // Forty QIDs with a leading zero come first: the canonical Q5 is KB entry 41, the QID table has 16 slots.
    const entities = Array.from({ length: 40 }, (_, i) => ({ qid: `Q0${i + 1}`, name: `Padding ${i + 1}`, type: "Other" as const, aliases: [] }));
    const kb = buildKbIndex([...entities, { qid: "Q5", name: "Stanford", type: "Place", aliases: [] }]);
    const gold = buildGold([{ id: "s1", qid: "Q5", collection: "Academic" }], kb);
    expect(scan('{"id": "s1", "ranking": ["Q5"]}', gold, kb)).toEqual(Uint8Array.of(0x80 | 1));
    expect(scan('{"id": "s1", "ranking": ["Q5", "Q5"]}', gold, kb)).toBeNull();
    expect(validated('{"id": "s1", "ranking": ["Q5", "Q5"]}', gold, kb)).toBeNull();
  });

  it("leaves what needs the KB or the gold to the second half: an unknown id, a missing sample, a QID outside the KB", () => {
    const context = prepareClosedScan(GOLD, KB);
    const [s1, s2, s3] = VALID as [string, string, string];
    for (const text of [[s1, s2, '{"id": "s9", "ranking": ["Q1"]}'], [s1, s2], [s1, s2, '{"id": "s3", "ranking": ["Q5"]}'], [s1, s2, s3, s1]]) {
      const parsed = parse(text.join("\n"));
      expect(parsed).not.toBeNull();
      expect(closedOutcomesOf(parsed as NonNullable<typeof parsed>, context)).toBeNull();
    }
    const parsed = parse(VALID.join("\n"));
    expect(Array.from(closedOutcomesOf(parsed as NonNullable<typeof parsed>, context) ?? [])).toEqual([0x80 | 2, 0x80 | 1, 0]);
  });

  it("ranks with integers only: each sample's gold rank (0 when absent) and top entity's KB index, in gold order", () => {
    const context = prepareClosedScan(GOLD, KB);
    const parsed = parse([VALID[2], VALID[0], VALID[1]].join("\n"));
    const ranked = rankParsedClosed(parsed as NonNullable<typeof parsed>, context);
    // KB order Q1, Q2, Q3, Q4, Q10 = indices 0..4. s1: ["Q4", "Q1"]; s2: ["Q2"]; s3: ["Q1", "Q2", "Q10"] without its gold Q3.
    expect(Array.from(ranked?.ranks ?? [])).toEqual([2, 1, 0]);
    expect(Array.from(ranked?.tops ?? [])).toEqual([3, 1, 0]);
  });
});
