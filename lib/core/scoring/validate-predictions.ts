import type { z } from "zod";
import { decodeUtf8Line } from "@/lib/core/scoring/decode-utf8-line";
import {
  MAX_LISTED_MISSING_IDS,
  MAX_LISTED_PROBLEMS,
  MAX_PREDICTION_LENGTH,
  MAX_PREDICTION_LINE_BYTES,
  MAX_RANKING_LENGTH,
} from "./limits";
import {
  closedPredictionLineSchema,
  codePointLength,
  findRepeat,
  openPredictionLineSchema,
} from "./prediction-line-schemas";
import type { TrackPredictions } from "./track-predictions";
import { TRACK_NAMES, type Track } from "./tracks";

/**
 * Line-level validation of a prediction file (protocol section 4), fed one
 * line at a time so a large file never has to be one string. A file is valid
 * only as a whole: any problem rejects it.
 */

type ValidationProblem = {
  /** 1-based line number, absent for problems of the whole file. */
  line?: number;
  message: string;
};

export type PredictionValidationResult =
  | (TrackPredictions & { ok: true; lineCount: number })
  | {
      ok: false;
      track: Track | null;
      /**
       * What to show, in order: the first `maxListedProblems` line problems,
       * then "... and N more problems" if any, then problems of the whole
       * file (missing samples, no predictions at all).
       */
      problems: ValidationProblem[];
      /** All problems found, listed or not. */
      problemCount: number;
    };

export type PredictionValidatorOptions = {
  /** Ids of the split's samples. */
  sampleIds: readonly string[];
  /** QIDs of the KB: a Set, or the KB index itself (its keys). */
  kbQids: KbQids;
  /** The track; when absent it is read from the first line with "prediction" or "ranking". */
  track?: Track;
  /** Split name for messages ("dev", "test"). */
  split?: string;
  maxListedProblems?: number;
  /**
   * Send every line through the zod schemas, even one the hand check already
   * found well-formed. Only for the test that both paths give the same
   * problems; the result is the same either way.
   */
  isFastPathDisabled?: boolean;
};

export type KbQids = ReadonlySet<string> | ReadonlyMap<string, unknown>;

/** Dense numbering of a KB's QIDs, built once per KB object and reused by every validator. */
const qidIndexCache = new WeakMap<KbQids, ReadonlyMap<string, number>>();

function qidIndexOf(kbQids: KbQids): ReadonlyMap<string, number> {
  const cached = qidIndexCache.get(kbQids);
  if (cached !== undefined) {
    return cached;
  }
  const index = new Map<string, number>();
  for (const qid of kbQids.keys()) {
    index.set(qid, index.size);
  }
  qidIndexCache.set(kbQids, index);
  return index;
}

const TRACK_FIELD: Record<Track, "prediction" | "ranking"> = { open: "prediction", closed: "ranking" };
const TRACK_LINE: Record<Track, string> = { open: "an open-world line", closed: "a closed-world line" };
const MAX_SHOWN_LENGTH = 60;

function show(value: string): string {
  const shown = JSON.stringify(value);
  return shown.length > MAX_SHOWN_LENGTH ? `${shown.slice(0, MAX_SHOWN_LENGTH - 2)}…"` : shown;
}

function describeType(value: unknown): string {
  if (value === null) {
    return "null";
  }
  if (Array.isArray(value)) {
    return "an array";
  }
  return /^[aeiou]/.test(typeof value) ? `an ${typeof value}` : `a ${typeof value}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const LONE_SURROGATE = "is not well-formed Unicode (lone surrogate)";

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * The hot path's hand checks: true only for a line the zod schema would
 * accept as it is (prediction-line-schemas.ts stays the contract). A line they
 * do not pass goes through zod, so every problem message still comes from
 * the zod issues; prediction-line-schemas.test.ts holds the two to agreement.
 */
export function isWellFormedOpenLine(value: Record<string, unknown>): value is { id: string; prediction: string } {
  return typeof value.id === "string" && typeof value.prediction === "string" && codePointLength(value.prediction) <= MAX_PREDICTION_LENGTH;
}

export function isWellFormedClosedLine(value: Record<string, unknown>): value is { id: string; ranking: string[] } {
  const ranking = value.ranking;
  if (typeof value.id !== "string" || !Array.isArray(ranking) || ranking.length < 1 || ranking.length > MAX_RANKING_LENGTH) {
    return false;
  }
  for (const entry of ranking as unknown[]) {
    if (typeof entry !== "string") {
      return false;
    }
  }
  return true;
}

export class PredictionValidator {
  private readonly sampleIndex = new Map<string, number>();
  private readonly firstLineOf: Int32Array;
  private readonly qidIndex: ReadonlyMap<string, number>;
  private readonly seenInPass: Int32Array;
  private readonly seenAtEntry: Uint8Array;
  private rankingPass = 0;
  private readonly splitLabel: string;
  private readonly maxListed: number;
  private readonly trackGiven: boolean;
  private readonly isFastPath: boolean;
  private track: Track | null;
  private trackLine = 0;
  private readonly listed: ValidationProblem[] = [];
  private lineProblemCount = 0;
  private nonBlankLines = 0;
  private lastLineNo = 0;
  private readonly predictions = new Map<string, string>();
  private readonly rankings = new Map<string, readonly string[]>();

  constructor(options: PredictionValidatorOptions) {
    options.sampleIds.forEach((id, index) => this.sampleIndex.set(id, index));
    this.firstLineOf = new Int32Array(options.sampleIds.length);
    this.qidIndex = qidIndexOf(options.kbQids);
    this.seenInPass = new Int32Array(this.qidIndex.size);
    this.seenAtEntry = new Uint8Array(this.qidIndex.size);
    this.splitLabel = options.split === undefined ? "the split" : `the ${options.split} split`;
    this.maxListed = options.maxListedProblems ?? MAX_LISTED_PROBLEMS;
    this.track = options.track ?? null;
    this.trackGiven = options.track !== undefined;
    this.isFastPath = options.isFastPathDisabled !== true;
  }

  /** The track, once given or read from a line. */
  get detectedTrack(): Track | null {
    return this.track;
  }

  /**
   * Feeds one physical line as read from the file: its bytes without the
   * terminator, or null with only its length when the reader did not keep a
   * line over the limit. Section 4 (v1.1): a line over 64 KiB is refused
   * without being parsed, and one that is not valid UTF-8 is a problem of the
   * line, never repaired.
   */
  addLineBytes(bytes: Uint8Array | null, byteLength: number, lineNo: number): void {
    if (bytes === null || byteLength > MAX_PREDICTION_LINE_BYTES) {
      this.lastLineNo = lineNo;
      this.nonBlankLines += 1;
      this.report(lineNo, `line is longer than 64 KiB (${byteLength} bytes)`);
      return;
    }
    const text = decodeUtf8Line(bytes);
    if (text === null) {
      this.lastLineNo = lineNo;
      this.nonBlankLines += 1;
      this.report(lineNo, "not valid UTF-8");
      return;
    }
    this.addLine(text, lineNo);
  }

  /** Feeds one physical line of text (without its "\n"; a trailing "\r" is dropped). */
  addLine(text: string, lineNo: number): void {
    this.lastLineNo = lineNo;
    let line = text.endsWith("\r") ? text.slice(0, -1) : text;
    // Section 4: a leading BOM is ignored.
    if (lineNo === 1 && line.charCodeAt(0) === 0xfeff) {
      line = line.slice(1);
    }
    if (line.trim().length === 0) {
      return;
    }
    this.nonBlankLines += 1;

    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.report(lineNo, `invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (!isPlainObject(value)) {
      this.report(lineNo, `not a JSON object (got ${describeType(value)})`);
      return;
    }

    const hasPrediction = Object.hasOwn(value, "prediction");
    const hasRanking = Object.hasOwn(value, "ranking");
    const sampleId = this.checkId(value, lineNo);

    if (hasPrediction && hasRanking) {
      this.report(lineNo, 'has both "prediction" and "ranking"; a file is for one track');
      return;
    }
    if (!hasPrediction && !hasRanking) {
      const wanted = this.track === null ? '"prediction" or "ranking"' : `"${TRACK_FIELD[this.track]}"`;
      this.report(lineNo, `missing ${wanted}`);
      return;
    }
    const lineTrack: Track = hasPrediction ? "open" : "closed";
    if (this.track === null) {
      this.track = lineTrack;
      this.trackLine = lineNo;
    }
    if (lineTrack !== this.track) {
      const source = this.trackGiven ? "as requested" : `as set by line ${this.trackLine}`;
      this.report(
        lineNo,
        `${TRACK_LINE[lineTrack]} ("${TRACK_FIELD[lineTrack]}") in a file for the ${TRACK_NAMES[this.track]} track (${source})`,
      );
      return;
    }
    if (lineTrack === "open") {
      this.checkOpenLine(value, lineNo, sampleId);
    } else {
      this.checkClosedLine(value, lineNo, sampleId);
    }
  }

  /** The verdict once every line is in. */
  finish(): PredictionValidationResult {
    const fileProblems: ValidationProblem[] = [];
    if (this.nonBlankLines === 0) {
      fileProblems.push({ message: "the file has no predictions" });
    }
    const missing: string[] = [];
    let missingCount = 0;
    for (const [id, index] of this.sampleIndex) {
      if (this.firstLineOf[index] === 0) {
        missingCount += 1;
        if (missing.length < MAX_LISTED_MISSING_IDS) {
          missing.push(show(id));
        }
      }
    }
    if (missingCount > 0) {
      const more = missingCount > missing.length ? ", …" : "";
      fileProblems.push({
        message: `${plural(missingCount, "sample", "samples")} of ${this.splitLabel} missing: ${missing.join(", ")}${more}`,
      });
    }

    const problemCount = this.lineProblemCount + fileProblems.length;
    if (problemCount === 0 && this.track !== null) {
      const base = { ok: true as const, lineCount: this.lastLineNo };
      return this.track === "open"
        ? { ...base, track: "open", predictions: this.predictions }
        : { ...base, track: "closed", predictions: this.rankings };
    }
    const problems = [...this.listed];
    const unlisted = this.lineProblemCount - this.listed.length;
    if (unlisted > 0) {
      problems.push({ message: `... and ${plural(unlisted, "more problem", "more problems")}` });
    }
    problems.push(...fileProblems);
    return { ok: false, track: this.track, problems, problemCount };
  }

  private report(line: number, message: string): void {
    this.lineProblemCount += 1;
    if (this.listed.length < this.maxListed) {
      this.listed.push({ line, message });
    }
  }

  private get isClean(): boolean {
    return this.lineProblemCount === 0;
  }

  /** Checks "id" and records the line; returns the id when it names a sample seen here first. */
  private checkId(value: Record<string, unknown>, lineNo: number): string | undefined {
    const id = value.id;
    if (id === undefined) {
      this.report(lineNo, 'missing "id"');
      return undefined;
    }
    if (typeof id !== "string") {
      this.report(lineNo, `"id" must be a string, got ${describeType(id)}`);
      return undefined;
    }
    if (!id.isWellFormed()) {
      this.report(lineNo, `"id" ${LONE_SURROGATE}`);
      return undefined;
    }
    const index = this.sampleIndex.get(id);
    if (index === undefined) {
      this.report(lineNo, `unknown id ${show(id)}: not a sample of ${this.splitLabel}`);
      return undefined;
    }
    const firstLine = this.firstLineOf[index] ?? 0;
    if (firstLine !== 0) {
      this.report(lineNo, `duplicate id ${show(id)} (first seen on line ${firstLine})`);
      return undefined;
    }
    this.firstLineOf[index] = lineNo;
    return id;
  }

  private checkOpenLine(value: Record<string, unknown>, lineNo: number, sampleId: string | undefined): void {
    if (typeof value.prediction === "string" && !value.prediction.isWellFormed()) {
      this.report(lineNo, `"prediction" ${LONE_SURROGATE}`);
      return;
    }
    let prediction: string;
    if (this.isFastPath && isWellFormedOpenLine(value)) {
      prediction = value.prediction;
    } else {
      const parsed = openPredictionLineSchema.safeParse(value);
      if (!parsed.success) {
        this.reportIssues(parsed.error.issues, value, lineNo);
        return;
      }
      prediction = parsed.data.prediction;
    }
    if (sampleId !== undefined && this.isClean) {
      this.predictions.set(sampleId, prediction);
    }
  }

  private checkClosedLine(value: Record<string, unknown>, lineNo: number, sampleId: string | undefined): void {
    if (Array.isArray(value.ranking)) {
      const entries = value.ranking as unknown[];
      const malformed = entries.findIndex((entry) => typeof entry === "string" && !entry.isWellFormed());
      if (malformed >= 0) {
        this.report(lineNo, `"ranking" entry ${malformed + 1} ${LONE_SURROGATE}`);
        return;
      }
    }
    let ranking: readonly string[];
    if (this.isFastPath && isWellFormedClosedLine(value)) {
      ranking = value.ranking;
    } else {
      const parsed = closedPredictionLineSchema.safeParse(value);
      if (!parsed.success) {
        this.reportIssues(parsed.error.issues, value, lineNo);
        return;
      }
      ranking = parsed.data.ranking;
    }
    // One pass over the ranking finds QIDs outside the KB and repeats: each KB
    // entity remembers the pass that last saw it and at which entry.
    this.rankingPass += 1;
    const pass = this.rankingPass;
    let unknownCount = 0;
    let firstUnknown = -1;
    let repeat: { qid: string; first: number; second: number } | undefined;
    for (let i = 0; i < ranking.length; i += 1) {
      const qid = ranking[i] ?? "";
      const kbIndex = this.qidIndex.get(qid);
      if (kbIndex === undefined) {
        unknownCount += 1;
        if (firstUnknown < 0) {
          firstUnknown = i;
        }
      } else if (this.seenInPass[kbIndex] === pass) {
        repeat ??= { qid, first: this.seenAtEntry[kbIndex] ?? 0, second: i };
      } else {
        this.seenInPass[kbIndex] = pass;
        this.seenAtEntry[kbIndex] = i;
      }
    }
    if (unknownCount > 0) {
      // Repeats among QIDs outside the KB are not seen above.
      repeat ??= findRepeat(ranking);
      const more = unknownCount > 1 ? ` (and ${plural(unknownCount - 1, "more QID", "more QIDs")} not in the KB)` : "";
      this.report(lineNo, `"ranking" entry ${firstUnknown + 1} ${show(ranking[firstUnknown] ?? "")} is not in the KB${more}`);
    }
    if (repeat !== undefined) {
      this.report(lineNo, `"ranking" repeats ${show(repeat.qid)} (entries ${repeat.first + 1} and ${repeat.second + 1})`);
    }
    if (sampleId !== undefined && this.isClean) {
      this.rankings.set(sampleId, ranking);
    }
  }

  /** Turns zod issues on a line into messages naming the field and the fix; "id" is checked separately. */
  private reportIssues(issues: readonly z.core.$ZodIssue[], value: Record<string, unknown>, lineNo: number): void {
    let badEntries = 0;
    let firstBadEntry = -1;
    for (const issue of issues) {
      const [field, entry] = issue.path;
      if (field === "id") {
        continue;
      }
      if (field === "ranking" && typeof entry === "number") {
        badEntries += 1;
        if (firstBadEntry < 0) {
          firstBadEntry = entry;
        }
        continue;
      }
      this.report(lineNo, describeFieldIssue(issue, value));
    }
    if (badEntries > 0) {
      const ranking = value.ranking;
      const actual = Array.isArray(ranking) ? (ranking as unknown[])[firstBadEntry] : undefined;
      const more = badEntries > 1 ? ` (and ${badEntries - 1} more)` : "";
      this.report(lineNo, `"ranking" entry ${firstBadEntry + 1} must be a QID string, got ${describeType(actual)}${more}`);
    }
  }
}

function describeFieldIssue(issue: z.core.$ZodIssue, value: Record<string, unknown>): string {
  const field = String(issue.path[0] ?? "");
  const actual = value[field];
  if (field === "prediction") {
    if (typeof actual !== "string") {
      return `"prediction" must be a string, got ${describeType(actual)}`;
    }
    return `"prediction" is too long: ${codePointLength(actual)} characters (at most ${MAX_PREDICTION_LENGTH})`;
  }
  if (field === "ranking") {
    if (!Array.isArray(actual)) {
      return `"ranking" must be an array of QIDs, got ${describeType(actual)}`;
    }
    if (actual.length === 0) {
      return `"ranking" is empty (it needs 1 to ${MAX_RANKING_LENGTH} QIDs)`;
    }
    if (actual.length > MAX_RANKING_LENGTH) {
      return `"ranking" is too long: ${actual.length} QIDs (at most ${MAX_RANKING_LENGTH})`;
    }
  }
  return `"${field}": ${issue.message}`;
}

/** Validates an (async) sequence of physical lines, numbered from 1. @internal exported for its tests. */
export async function validatePredictionLines(
  lines: Iterable<string> | AsyncIterable<string>,
  options: PredictionValidatorOptions,
): Promise<PredictionValidationResult> {
  const validator = new PredictionValidator(options);
  let lineNo = 0;
  for await (const line of lines) {
    lineNo += 1;
    validator.addLine(line, lineNo);
  }
  return validator.finish();
}

/** Validates a whole file already in memory (tests, small uploads). @internal exported for its tests. */
export function validatePredictionText(text: string, options: PredictionValidatorOptions): PredictionValidationResult {
  const validator = new PredictionValidator(options);
  const lines = text.split("\n");
  // A final "\n" ends the last line; it does not start another.
  if (lines.length > 0 && lines[lines.length - 1] === "") {
    lines.pop();
  }
  lines.forEach((line, index) => validator.addLine(line, index + 1));
  return validator.finish();
}
