import { isAliasHitAt1, prepareClosedGold, type PreparedClosedGold } from "./closed-world";
import type { GoldRecord, KbIndex } from "./gold";
import { MAX_PREDICTION_LINE_BYTES, MAX_RANKING_LENGTH } from "./limits";
import { norm } from "./normalize";
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

/** An open-addressing hash table (linear probing, at most half full): QID number to KB index; key 0 is an empty slot. */
export type QidTable = { keys: Int32Array; values: Int32Array; mask: number };

function prepareQidTable(numbers: readonly (readonly [number, number])[]): QidTable {
  let size = 16;
  while (size < numbers.length * 2) size *= 2;
  const table: QidTable = { keys: new Int32Array(size), values: new Int32Array(size), mask: size - 1 };
  for (const [value, kbIndex] of numbers) {
    let slot = Math.imul(value, 0x9e3779b1) & table.mask;
    while (table.keys[slot] !== 0) slot = (slot + 1) & table.mask;
    table.keys[slot] = value;
    table.values[slot] = kbIndex;
  }
  return table;
}

const BYTE = {
  tab: 0x09,
  lf: 0x0a,
  cr: 0x0d,
  space: 0x20,
  quote: 0x22,
  comma: 0x2c,
  colon: 0x3a,
  open: 0x5b,
  backslash: 0x5c,
  close: 0x5d,
  braceOpen: 0x7b,
  braceClose: 0x7d,
  zero: 0x30,
  nine: 0x39,
  q: 0x51,
} as const;
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
  const qidTable = prepareQidTable(qidNumbers);
  // A gold QID that is not canonical is never matched by the scanner's table: -1, and no ranking can reach it.
  const goldKbIndex = Int32Array.from(gold, (sample) => lookUpQid(qidTable, canonicalQidNumber(sample.qid)));
  return { sampleIndexById, qidTable, kbQids, goldKbIndex, gold, kb, normalizedNames: [], preparedGold: new Map() };
}

/** Q123 -> 123 for a canonical QID (Q, no leading zero, at most 9 digits: /^Q[1-9][0-9]{0,8}$/); 0 for anything else. */
function canonicalQidNumber(qid: string): number {
  if (qid.length < 2 || qid.length > 10 || qid.charCodeAt(0) !== BYTE.q || qid.charCodeAt(1) === BYTE.zero) return 0;
  let value = 0;
  for (let i = 1; i < qid.length; i += 1) {
    const digit = qid.charCodeAt(i) - BYTE.zero;
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

/** Per-file state: the line being read and the samples seen. */
class Scan {
  position = 0;
  readonly seenInLine: Int32Array;
  private lineStamp = 0;
  readonly ranking = new Int32Array(MAX_RANKING_LENGTH);
  rankingLength = 0;
  idStart = -1;
  idEnd = -1;

  constructor(
    readonly bytes: Uint8Array,
    kbSize: number,
  ) {
    this.seenInLine = new Int32Array(kbSize);
  }

  skipSpaces(end: number): void {
    let at = this.position;
    while (at < end && (this.bytes[at] === BYTE.space || this.bytes[at] === BYTE.tab)) at += 1;
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
    if (!this.take(BYTE.quote, end)) return -1;
    const start = this.position;
    for (let at = start; at < end; at += 1) {
      const byte = this.bytes[at] ?? 0;
      if (byte === BYTE.quote) {
        this.position = at + 1;
        return start;
      }
      if (byte < BYTE.space || byte > 0x7e || byte === BYTE.backslash) return -1;
    }
    return -1;
  }

  /**
   * The ranking's QIDs as KB indices; false for anything the validator might
   * refuse or read otherwise. The hot loop of the scanner, so it reads the
   * bytes directly: no token scans beyond `end` are possible, because every
   * loop continues only on bytes a line terminator is not (quote, digit,
   * comma, space).
   */
  rankingArray(end: number, context: ClosedScanContext): boolean {
    const bytes = this.bytes;
    const table = context.qidTable;
    const { keys, values, mask } = table;
    const { seenInLine, ranking } = this;
    let at = this.position;
    while (bytes[at] === BYTE.space || bytes[at] === BYTE.tab) at += 1;
    if (bytes[at] !== BYTE.open) return false;
    at += 1;
    this.lineStamp += 1;
    const stamp = this.lineStamp;
    let length = 0;
    for (;;) {
      while (bytes[at] === BYTE.space || bytes[at] === BYTE.tab) at += 1;
      if (bytes[at] !== BYTE.quote || bytes[at + 1] !== BYTE.q) return false;
      at += 2;
      const digitsStart = at;
      let byte = bytes[at] ?? 0;
      if (byte <= BYTE.zero || byte > BYTE.nine) return false;
      let value = 0;
      while (byte >= BYTE.zero && byte <= BYTE.nine) {
        value = value * 10 + (byte - BYTE.zero);
        at += 1;
        byte = bytes[at] ?? 0;
      }
      if (at - digitsStart > 9 || byte !== BYTE.quote) return false;
      at += 1;
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
      if (kbIndex < 0 || length >= MAX_RANKING_LENGTH || seenInLine[kbIndex] === stamp) return false;
      seenInLine[kbIndex] = stamp;
      ranking[length] = kbIndex;
      length += 1;
      while (bytes[at] === BYTE.space || bytes[at] === BYTE.tab) at += 1;
      if (bytes[at] === BYTE.comma) {
        at += 1;
        continue;
      }
      if (bytes[at] !== BYTE.close || at >= end) return false;
      this.position = at + 1;
      this.rankingLength = length;
      return true;
    }
  }

  /** One line [start, end): true when it is blank or one well-formed, valid prediction (id and ranking recorded). */
  line(start: number, end: number, context: ClosedScanContext): "blank" | "line" | "other" {
    this.position = start;
    this.skipSpaces(end);
    if (this.position === end) return "blank";
    this.idStart = -1;
    let hasRanking = false;
    if (!this.take(BYTE.braceOpen, end)) return "other";
    for (let field = 0; field < 2; field += 1) {
      const keyStart = this.simpleString(end);
      if (keyStart < 0) return "other";
      const keyEnd = this.position - 1;
      if (!this.take(BYTE.colon, end)) return "other";
      if (isKey(this.bytes, keyStart, keyEnd, "id") && this.idStart < 0) {
        const idStart = this.simpleString(end);
        if (idStart < 0) return "other";
        this.idStart = idStart;
        this.idEnd = this.position - 1;
      } else if (isKey(this.bytes, keyStart, keyEnd, "ranking") && !hasRanking) {
        if (!this.rankingArray(end, context)) return "other";
        hasRanking = true;
      } else {
        return "other";
      }
      if (field === 0 && !this.take(BYTE.comma, end)) return "other";
    }
    if (!this.take(BYTE.braceClose, end)) return "other";
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
function outcomeOf(scan: Scan, context: ClosedScanContext, sampleIndex: number): number {
  const sample = context.gold[sampleIndex] as GoldRecord;
  const goldKb = context.goldKbIndex[sampleIndex] ?? -1;
  let rank = 0;
  for (let i = 0; i < scan.rankingLength; i += 1) {
    if (scan.ranking[i] === goldKb) {
      rank = i + 1;
      break;
    }
  }
  const top = scan.ranking[0] ?? -1;
  if (top === goldKb) {
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
 * The outcome codes of a closed-track prediction file given as its bytes, in
 * gold order, or null when the file is not in the simple form above or is
 * not valid (then validate it with validatePredictionFile).
 */
export function scanClosedPredictions(bytes: Uint8Array, context: ClosedScanContext): Uint8Array | null {
  const { gold } = context;
  const codes = new Uint8Array(gold.length);
  const seen = new Uint8Array(gold.length);
  let seenCount = 0;
  const scan = new Scan(bytes, context.kbQids.length);
  let start = bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2] ? BOM.length : 0;
  while (start < bytes.length) {
    let newline = bytes.indexOf(BYTE.lf, start);
    if (newline < 0) newline = bytes.length;
    // The reader drops one "\r" before "\n" (read-line-bytes.ts); another one would be dropped by the validator: leave that to it.
    const end = newline > start && bytes[newline - 1] === BYTE.cr ? newline - 1 : newline;
    if (end - start > MAX_PREDICTION_LINE_BYTES) return null;
    const kind = scan.line(start, end, context);
    if (kind === "other") return null;
    if (kind === "line") {
      const sampleIndex = context.sampleIndexById.get(asciiText(bytes, scan.idStart, scan.idEnd));
      if (sampleIndex === undefined || seen[sampleIndex] === 1) return null;
      seen[sampleIndex] = 1;
      seenCount += 1;
      codes[sampleIndex] = outcomeOf(scan, context, sampleIndex);
    }
    start = newline + 1;
  }
  return seenCount === gold.length && gold.length > 0 ? codes : null;
}
