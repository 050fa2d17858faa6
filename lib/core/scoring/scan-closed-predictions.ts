import { isAliasHitAt1, prepareClosedGold, type PreparedClosedGold } from "./closed-world";
import type { GoldRecord, KbIndex } from "./gold";
import { MAX_PREDICTION_LINE_BYTES, MAX_RANKING_LENGTH } from "./limits";
import { norm } from "./normalize";
import { TAB, LF, CR, SPACE, QUOTE, COMMA, COLON, BRACKET_OPEN, BACKSLASH, BRACKET_CLOSE, BRACE_OPEN, BRACE_CLOSE, DIGIT_ZERO, LETTER_Q } from "./json-bytes";
import { encodeClosedOutcome } from "./outcome-codes";

/**
 * A byte scanner for the common closed-track file: every line exactly
 * {"id": "...", "ranking": ["Q1", "Q2", ...]} (either key first, spaces or
 * tabs between tokens, printable ASCII strings without escapes, canonical
 * QIDs), every sample once, every QID in the KB, no repeats. For such a file
 * it gives the per-sample outcome codes (section 7) straight from the bytes,
 * without JSON.parse, without a string per QID and without the rankings map:
 * the same codes as validating the file (section 4) and scoring it
 * (scoreClosedWorld). Anything else, however small (a problem, an escape,
 * another key, a QID written "Q012"), answers null and the caller runs the
 * full validator, which then says what is wrong: this path never produces a
 * message and never accepts a file the validator would refuse.
 */

/** What the scanner needs of the gold and the KB, built once and reused for every file of the split. */
export type ClosedScanContext = {
  sampleIndexById: ReadonlyMap<string, number>;
  /** Canonical QID number (Q123 -> 123) to a dense KB index. */
  qidTable: QidTable;
  kbQids: readonly string[];
  /** KB index of each gold sample's entity, in gold order. */
  goldKbIndex: Int32Array;
  gold: readonly GoldRecord[];
  kb: KbIndex;
  /** norm(name) by KB index, filled on first use. */
  normalizedNames: (string | undefined)[];
  preparedGold: Map<string, PreparedClosedGold>;
};

/**
 * An open-addressing hash table (linear probing, at most half full): QID
 * number to KB index; key 0 is an empty slot. `kbSize` bounds every value.
 */
export type QidTable = { keys: Int32Array; values: Int32Array; mask: number; kbSize: number };

function prepareQidTable(numbers: readonly (readonly [number, number])[], kbSize: number): QidTable {
  let size = 16;
  while (size < numbers.length * 2) size *= 2;
  const table: QidTable = { keys: new Int32Array(size), values: new Int32Array(size), mask: size - 1, kbSize };
  for (const [value, kbIndex] of numbers) {
    let slot = Math.imul(value, 0x9e3779b1) & table.mask;
    while (table.keys[slot] !== 0) slot = (slot + 1) & table.mask;
    table.keys[slot] = value;
    table.values[slot] = kbIndex;
  }
  return table;
}

const BOM = [0xef, 0xbb, 0xbf] as const;

export function prepareClosedScan(gold: readonly GoldRecord[], kb: KbIndex): ClosedScanContext {
  const sampleIndexById = new Map<string, number>();
  gold.forEach((sample, index) => sampleIndexById.set(sample.id, index));
  const qidNumbers: [number, number][] = [];
  const kbQids = [...kb.keys()];
  kbQids.forEach((qid, index) => {
    const value = canonicalQidNumber(qid);
    if (value > 0) qidNumbers.push([value, index]);
  });
  const qidTable = prepareQidTable(qidNumbers, kbQids.length);
  // A gold QID that is not canonical is never matched by the scanner's table: -1, and no ranking can reach it.
  const goldKbIndex = Int32Array.from(gold, (sample) => lookUpQid(qidTable, canonicalQidNumber(sample.qid)));
  return { sampleIndexById, qidTable, kbQids, goldKbIndex, gold, kb, normalizedNames: [], preparedGold: new Map() };
}

/** Q123 -> 123 for a canonical QID (Q, no leading zero, at most 9 digits: /^Q[1-9][0-9]{0,8}$/); 0 for anything else. */
function canonicalQidNumber(qid: string): number {
  if (qid.length < 2 || qid.length > 10 || qid.charCodeAt(0) !== LETTER_Q || qid.charCodeAt(1) === DIGIT_ZERO) return 0;
  let value = 0;
  for (let i = 1; i < qid.length; i += 1) {
    const digit = qid.charCodeAt(i) - DIGIT_ZERO;
    if (digit < 0 || digit > 9) return 0;
    value = value * 10 + digit;
  }
  return value;
}

function lookUpQid(table: QidTable, value: number): number {
  if (value <= 0) return -1;
  for (let slot = Math.imul(value, 0x9e3779b1) & table.mask; ; slot = (slot + 1) & table.mask) {
    const key = table.keys[slot] ?? 0;
    if (key === value) return table.values[slot] ?? -1;
    if (key === 0) return -1;
  }
}

/**
 * A closed-track file read as syntax only, without the KB or the gold (so a
 * worker thread can produce it while the release is still being read): per
 * non-blank line its id and its ranking's QID numbers (Q123 -> 123), at most
 * MAX_RANKING_LENGTH of them (a QID twice in one ranking is left to the
 * second half, which checks it by KB index). Line i's numbers are
 * qidNumbers[rankingStarts[i] .. rankingStarts[i + 1]).
 */
export type ParsedClosedFile = {
  ids: string[];
  rankingStarts: Int32Array;
  qidNumbers: Int32Array;
};

/** Per-file state: the line being read and the QID numbers so far. */
class Scan {
  position = 0;
  qidNumbers: Int32Array;
  qidCount = 0;
  idStart = -1;
  idEnd = -1;

  constructor(
    readonly bytes: Uint8Array,
    scratch: Int32Array | undefined,
  ) {
    // A QID takes at least 5 bytes ("Q1",) so this rarely grows.
    const size = Math.max(16, bytes.length >> 3);
    this.qidNumbers = scratch !== undefined && scratch.length >= size ? scratch : new Int32Array(size);
  }

  skipSpaces(end: number): void {
    let at = this.position;
    while (at < end && (this.bytes[at] === SPACE || this.bytes[at] === TAB)) at += 1;
    this.position = at;
  }

  take(byte: number, end: number): boolean {
    this.skipSpaces(end);
    if (this.position >= end || this.bytes[this.position] !== byte) return false;
    this.position += 1;
    return true;
  }

  /** A string of printable ASCII without escapes; its bytes are [start, position - 1). */
  simpleString(end: number): number {
    if (!this.take(QUOTE, end)) return -1;
    const start = this.position;
    for (let at = start; at < end; at += 1) {
      const byte = this.bytes[at] ?? 0;
      if (byte === QUOTE) {
        this.position = at + 1;
        return start;
      }
      if (byte < SPACE || byte > 0x7e || byte === BACKSLASH) return -1;
    }
    return -1;
  }

  /** Room for at least one more number. */
  private grown(): Int32Array {
    const larger = new Int32Array(this.qidNumbers.length * 2);
    larger.set(this.qidNumbers);
    this.qidNumbers = larger;
    return larger;
  }

  /**
   * The ranking's canonical QID numbers, appended to qidNumbers; false for
   * anything the validator might refuse or read otherwise (a QID not in
   * canonical form, more than MAX_RANKING_LENGTH). The hot loop of the scanner, so it reads the
   * bytes directly and keeps its state in locals: no token scans beyond
   * `end` are possible, because every loop continues only on bytes a line
   * terminator is not (quote, digit, comma, space).
   */
  rankingArray(end: number): boolean {
    const bytes = this.bytes;
    let numbers = this.qidNumbers;
    let at = this.position;
    while (bytes[at] === SPACE || bytes[at] === TAB) at += 1;
    if (bytes[at] !== BRACKET_OPEN) return false;
    at += 1;
    const first = this.qidCount;
    let count = first;
    for (;;) {
      while (bytes[at] === SPACE || bytes[at] === TAB) at += 1;
      if (bytes[at] !== QUOTE || bytes[at + 1] !== LETTER_Q) return false;
      at += 2;
      const digitsStart = at;
      // A digit as an unsigned distance from "0": one comparison says whether the byte is one (past the end: 0 - "0", no).
      let digit = (bytes[at] ?? 0) - DIGIT_ZERO;
      if (digit === 0 || digit >>> 0 > 9) return false;
      let value = 0;
      do {
        value = value * 10 + digit;
        at += 1;
        digit = (bytes[at] ?? 0) - DIGIT_ZERO;
      } while (digit >>> 0 <= 9);
      if (at - digitsStart > 9 || bytes[at] !== QUOTE) return false;
      at += 1;
      if (count - first >= MAX_RANKING_LENGTH) return false;
      if (count === numbers.length) numbers = this.grown();
      numbers[count] = value;
      count += 1;
      while (bytes[at] === SPACE || bytes[at] === TAB) at += 1;
      if (bytes[at] === COMMA) {
        at += 1;
        continue;
      }
      if (bytes[at] !== BRACKET_CLOSE || at >= end) return false;
      this.position = at + 1;
      this.qidCount = count;
      return true;
    }
  }

  /** One line [start, end): blank, one well-formed prediction (id and ranking recorded), or anything else. */
  line(start: number, end: number): "blank" | "line" | "other" {
    this.position = start;
    this.skipSpaces(end);
    if (this.position === end) return "blank";
    this.idStart = -1;
    let hasRanking = false;
    if (!this.take(BRACE_OPEN, end)) return "other";
    for (let field = 0; field < 2; field += 1) {
      const keyStart = this.simpleString(end);
      if (keyStart < 0) return "other";
      const keyEnd = this.position - 1;
      if (!this.take(COLON, end)) return "other";
      if (isKey(this.bytes, keyStart, keyEnd, "id") && this.idStart < 0) {
        const idStart = this.simpleString(end);
        if (idStart < 0) return "other";
        this.idStart = idStart;
        this.idEnd = this.position - 1;
      } else if (isKey(this.bytes, keyStart, keyEnd, "ranking") && !hasRanking) {
        if (!this.rankingArray(end)) return "other";
        hasRanking = true;
      } else {
        return "other";
      }
      if (field === 0 && !this.take(COMMA, end)) return "other";
    }
    if (!this.take(BRACE_CLOSE, end)) return "other";
    this.skipSpaces(end);
    return this.position === end ? "line" : "other";
  }
}

/** Whether bytes [start, end) are `key` (compared in place: a subarray per key cost more than the compare). */
function isKey(bytes: Uint8Array, start: number, end: number, key: "id" | "ranking"): boolean {
  if (end - start !== key.length) return false;
  for (let i = 0; i < key.length; i += 1) {
    if (bytes[start + i] !== key.charCodeAt(i)) return false;
  }
  return true;
}

/** The id's bytes as a string: printable ASCII here, so one code unit per byte. */
function asciiText(bytes: Uint8Array, start: number, end: number): string {
  // apply takes the typed array as it is; a spread would step an iterator through it, several times slower.
  return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
}

function normalizedNameOf(context: ClosedScanContext, kbIndex: number): string | undefined {
  const cached = context.normalizedNames[kbIndex];
  if (cached !== undefined) return cached;
  const entity = context.kb.get(context.kbQids[kbIndex] ?? "");
  if (entity === undefined) return undefined;
  const normalized = norm(entity.name);
  context.normalizedNames[kbIndex] = normalized;
  return normalized;
}

/** Section 7 for one sample: the gold rank and alias_hit@1, exactly as scoreClosedWorld computes them. */
function outcomeOf(context: ClosedScanContext, sampleIndex: number, rank: number, top: number): number {
  const sample = context.gold[sampleIndex] as GoldRecord;
  if (top === (context.goldKbIndex[sampleIndex] ?? -1)) {
    // The gold itself on top: an alias_hit@1 without comparing names (isAliasHitAt1's first rule).
    return encodeClosedOutcome(rank, true);
  }
  let prepared = context.preparedGold.get(sample.qid);
  if (prepared === undefined) {
    prepared = prepareClosedGold(sample.qid, sample.name, sample.aliases);
    context.preparedGold.set(sample.qid, prepared);
  }
  const topQid = context.kbQids[top] ?? "";
  const isAliasHit = isAliasHitAt1([topQid], prepared, (qid) => (qid === topQid ? normalizedNameOf(context, top) : undefined));
  return encodeClosedOutcome(rank, isAliasHit);
}

/**
 * The first half of the scanner, which needs neither gold nor KB: a
 * closed-track file's ids and rankings when every line is in the simple
 * form above, or null. `scratch`, when given and large enough, holds the
 * QID numbers (the result's qidNumbers is then a view of it): a thread that
 * ranks file after file reuses one array instead of a new 3 MB one each.
 */
export function parseClosedRankings(bytes: Uint8Array, scratch?: Int32Array): ParsedClosedFile | null {
  const ids: string[] = [];
  const rankingStarts: number[] = [0];
  const scan = new Scan(bytes, scratch);
  // Where the line's bytes begin (the 64 KiB limit counts them all, a leading BOM included, as the reader does) and where its content does.
  let lineStart = 0;
  let start = bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2] ? BOM.length : 0;
  while (start < bytes.length) {
    let newline = bytes.indexOf(LF, start);
    if (newline < 0) newline = bytes.length;
    // The reader drops one "\r" before "\n" (read-line-bytes.ts); another one would be dropped by the validator: leave that to it.
    const end = newline > start && bytes[newline - 1] === CR ? newline - 1 : newline;
    if (end - lineStart > MAX_PREDICTION_LINE_BYTES) return null;
    const kind = scan.line(start, end);
    if (kind === "other") return null;
    if (kind === "line") {
      ids.push(asciiText(bytes, scan.idStart, scan.idEnd));
      rankingStarts.push(scan.qidCount);
    }
    start = newline + 1;
    lineStart = start;
  }
  return { ids, rankingStarts: Int32Array.from(rankingStarts), qidNumbers: scan.qidNumbers.subarray(0, scan.qidCount) };
}

/** What ranking a parsed file needs (no names): a scan thread gets a copy from the main thread once the gold is known. */
export type ClosedRankTable = Pick<ClosedScanContext, "sampleIndexById" | "qidTable" | "goldKbIndex">;

/** Per sample, in gold order: the gold's rank (0 when not ranked) and the KB index of the top entity. */
export type ClosedRanks = { ranks: Int32Array; tops: Int32Array };

/**
 * The second half, integers only: each sample's gold rank and top entity,
 * or null when the file is not valid for this split and KB (an unknown or
 * repeated id, a sample missing, a QID not in the KB, a QID twice in one
 * ranking).
 */
export function rankParsedClosed(parsed: ParsedClosedFile, table: ClosedRankTable): ClosedRanks | null {
  const { goldKbIndex, sampleIndexById } = table;
  const { keys, values, mask, kbSize } = table.qidTable;
  const { ids, rankingStarts, qidNumbers } = parsed;
  const n = goldKbIndex.length;
  if (ids.length !== n || n === 0) return null;
  const ranks = new Int32Array(n);
  const tops = new Int32Array(n).fill(-1);
  // The line (plus one) that last ranked each KB entity: a QID twice in one ranking (section 4) is seen by its KB index.
  const rankedOnLine = new Int32Array(kbSize);
  for (let line = 0; line < ids.length; line += 1) {
    const sampleIndex = sampleIndexById.get(ids[line] ?? "");
    if (sampleIndex === undefined || (tops[sampleIndex] ?? 0) >= 0) return null;
    const goldKb = goldKbIndex[sampleIndex] ?? -1;
    const first = rankingStarts[line] ?? 0;
    const last = rankingStarts[line + 1] ?? 0;
    let rank = 0;
    for (let at = first; at < last; at += 1) {
      const value = qidNumbers[at] ?? 0;
      // Open addressing on the canonical QID number (prepareQidTable).
      let slot = Math.imul(value, 0x9e3779b1) & mask;
      let kbIndex = -1;
      for (;;) {
        const key = keys[slot] ?? 0;
        if (key === value) {
          kbIndex = values[slot] ?? -1;
          break;
        }
        if (key === 0) break;
        slot = (slot + 1) & mask;
      }
      if (kbIndex < 0 || rankedOnLine[kbIndex] === line + 1) return null;
      rankedOnLine[kbIndex] = line + 1;
      if (at === first) tops[sampleIndex] = kbIndex;
      if (rank === 0 && kbIndex === goldKb) rank = at - first + 1;
    }
    ranks[sampleIndex] = rank;
  }
  // As many lines as samples, none unknown or repeated: every sample is there.
  return { ranks, tops };
}

/** The outcome codes (section 7) of ranked samples: the rank, and alias_hit@1 from the top entity's name. */
export function closedOutcomesOfRanks(ranked: ClosedRanks, context: ClosedScanContext): Uint8Array {
  const codes = new Uint8Array(ranked.ranks.length);
  for (let i = 0; i < codes.length; i += 1) {
    codes[i] = outcomeOf(context, i, ranked.ranks[i] ?? 0, ranked.tops[i] ?? -1);
  }
  return codes;
}

/** Both steps of the second half: the outcome codes, in gold order, of a parsed file, or null when it is not valid. */
export function closedOutcomesOf(parsed: ParsedClosedFile, context: ClosedScanContext): Uint8Array | null {
  const ranked = rankParsedClosed(parsed, context);
  return ranked === null ? null : closedOutcomesOfRanks(ranked, context);
}

/**
 * The outcome codes of a closed-track prediction file given as its bytes, in
 * gold order, or null when the file is not in the simple form above or is
 * not valid (then validate it with validatePredictionFile).
 * @internal exported for its unit test (and the tests of other modules); the platform does not call it.
 */
export function scanClosedPredictions(bytes: Uint8Array, context: ClosedScanContext): Uint8Array | null {
  const parsed = parseClosedRankings(bytes);
  return parsed === null ? null : closedOutcomesOf(parsed, context);
}
