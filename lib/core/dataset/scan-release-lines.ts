import { isUtf8 } from "node:buffer";
import { wellFormedEntity, wellFormedSample } from "@/lib/core/dataset/release-fast-checks";
import type { Entity, Sample } from "@/lib/core/dataset/release-schema";

/**
 * The command-line scorer's quick read of release files (protocol section
 * 2): a JSON Lines file of the common form is parsed by one JSON.parse of
 * the whole file as an array ("\n" read as ","), native code from end to
 * end, instead of a split, a decode and a parse per line. Each value then
 * goes through the same hand checks readRelease uses (wellFormedEntity,
 * wellFormedSample). Anything else, however small (a blank line, a "\r", a
 * line that is not one well-formed object, a duplicate qid or id, a sample
 * whose qid is not in the KB, bytes that are not UTF-8), answers null and
 * the caller reads the release with readRelease, which then says what is
 * wrong: this path never produces a message and never accepts a release the
 * validator would refuse.
 *
 * Why one value per line is guaranteed: the parse alone does not say so,
 * since a "," read in place of a "\n" is also valid inside a string (a line
 * cut in the middle of a string becomes one value with a "," in it) and
 * inside an object or an array ('{"qid": "Q1", ...}, {"qid": "Q2"' then
 * '"name": ...}' parses as two values of two lines, neither line valid on
 * its own). So every "\n" is also checked to stand outside every string,
 * object and array (isEveryLineWhole). An empty or blank line would leave
 * ",," or ", ," and fail the parse. With as many values as lines, each line
 * holding whole values, each line holds exactly one, and JSON.parse gives it
 * the same value as it would alone.
 */

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * Whether every "\n" in bytes [start, end) stands outside all strings,
 * brackets and braces, for bytes already known to parse as JSON once each
 * "\n" is read as ",": strings are skipped with indexOf (a quote ends one
 * unless an odd number of backslashes precede it), so only the bytes
 * between strings are looked at one by one.
 */
function isEveryLineWhole(bytes: Buffer, start: number, end: number): boolean {
  const nextNewlineFrom = (from: number): number => {
    const at = bytes.indexOf(NEWLINE, from);
    return at < 0 || at >= end ? end : at;
  };
  let nextNewline = nextNewlineFrom(start);
  let depth = 0;
  for (let at = start; at < end; at += 1) {
    const byte = bytes[at];
    if (byte === QUOTE) {
      let close = bytes.indexOf(QUOTE, at + 1);
      for (;;) {
        if (close < 0 || close >= end) return false;
        let backslashes = 0;
        while (bytes[close - 1 - backslashes] === BACKSLASH) backslashes += 1;
        if (backslashes % 2 === 0) break;
        close = bytes.indexOf(QUOTE, close + 1);
      }
      // A line break inside the string: the "," read in its place made it one.
      if (nextNewline < close) return false;
      at = close;
    } else if (byte === 0x7b || byte === 0x5b) {
      depth += 1;
    } else if (byte === 0x7d || byte === 0x5d) {
      depth -= 1;
    } else if (byte === NEWLINE) {
      if (depth !== 0) return false;
      nextNewline = nextNewlineFrom(at + 1);
    }
  }
  return true;
}

/** The values of the file's lines, in order; null when the file is not of the form above. */
function parseLines(bytes: Buffer): unknown[] | null {
  if (!isUtf8(bytes)) return null;
  const start = bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2] ? BOM.length : 0;
  const end = bytes.length > start && bytes[bytes.length - 1] === NEWLINE ? bytes.length - 1 : bytes.length;
  if (end <= start) return null;
  let lineCount = 1;
  for (let at = bytes.indexOf(NEWLINE, start); at >= 0 && at < end; at = bytes.indexOf(NEWLINE, at + 1)) lineCount += 1;
  let values: unknown;
  try {
    values = JSON.parse(`[${bytes.toString("utf8", start, end).replaceAll("\n", ",")}]`);
  } catch {
    return null;
  }
  return Array.isArray(values) && values.length === lineCount && isEveryLineWhole(bytes, start, end) ? values : null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** kb.jsonl: its entities in file order (what readRelease returns), or null. */
export function scanKbLines(bytes: Buffer): Entity[] | null {
  const values = parseLines(bytes);
  if (values === null) return null;
  const entities: Entity[] = [];
  const seen = new Set<string>();
  for (const value of values) {
    const entity = isPlainObject(value) ? wellFormedEntity(value) : null;
    if (entity === null || seen.has(entity.qid)) return null;
    seen.add(entity.qid);
    entities.push(entity);
  }
  return entities;
}

/**
 * A gold split file: its samples in file order (what readRelease returns), or
 * null. Every qid must be in `kbQids`; with null the caller checks that
 * itself (a scan thread reads the split while the main thread reads the KB).
 */
export function scanSampleLines(bytes: Buffer, kbQids: ReadonlySet<string> | null): Sample[] | null {
  const values = parseLines(bytes);
  if (values === null) return null;
  const samples: Sample[] = [];
  const seen = new Set<string>();
  for (const value of values) {
    const sample = isPlainObject(value) ? wellFormedSample(value) : null;
    if (sample === null || seen.has(sample.id) || (kbQids !== null && !kbQids.has(sample.qid))) return null;
    seen.add(sample.id);
    samples.push(sample);
  }
  return samples;
}
