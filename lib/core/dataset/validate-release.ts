import type { z } from "zod";
import { describeIssue, describeValueType } from "@/lib/core/dataset/describe-issue";
import { createLeakageMatcher, type LeakageFinding, type LeakageMatcher } from "@/lib/core/dataset/find-leakage";
import {
  KB_FILE,
  META_FILE,
  SPLIT_FILES,
  SPLITS,
  datasetMetaSchema,
  entitySchema,
  qidSchema,
  sampleSchema,
  type DatasetMeta,
  type Entity,
  type ReleaseFileName,
  type Sample,
  type Split,
  type SplitFile,
} from "@/lib/core/dataset/release-schema";
import { wellFormedEntity, wellFormedSample } from "@/lib/core/dataset/release-fast-checks";

/**
 * The pure validation core of a release import (protocol section 2). It takes
 * the lines of each file one at a time, so the caller can stream, and collects
 * every problem rather than stopping at the first. No fs here: see
 * read-release.ts for the file-system wrapper.
 */

export type ReleaseProblem = { file: string; line?: number; message: string };

export type ReleaseContent = {
  meta: DatasetMeta;
  entities: Entity[];
  /** Splits that were not requested are empty. */
  samples: Record<Split, Sample[]>;
};

type ValidateReleaseResult =
  | { ok: true; release: ReleaseContent; leakage: LeakageFinding[] }
  | { ok: false; problems: ReleaseProblem[] };

type ValidateReleaseOptions = {
  /** Splits to validate (default: all three). Cross-split checks cover these only. */
  splits?: readonly Split[];
  /** Skip the leakage scan (it never makes a release invalid); the offline scorer does not report it. */
  isLeakageSkipped?: boolean;
  /**
   * Send every line through the zod schemas, even one the hand checks
   * (wellFormedEntity, wellFormedSample) accept. Only for the test that both
   * paths give the same result; it is the same either way.
   */
  isFastPathDisabled?: boolean;
};

export type ReleaseValidator = {
  /** Marks a file as present (so an empty file is not reported missing). */
  startFile: (file: ReleaseFileName) => void;
  /** The whole text of dataset.json. */
  addMetaText: (text: string) => void;
  /** One raw line (without its "\n") of kb.jsonl or a split file, in file order. */
  addLine: (file: typeof KB_FILE | SplitFile, text: string) => void;
  /** One line that could not be decoded (not UTF-8): counted, reported, not parsed. */
  addUndecodableLine: (file: typeof KB_FILE | SplitFile, message: string) => void;
  /** A file that could not be read (missing, a directory, ...). */
  reportUnreadableFile: (file: ReleaseFileName, message: string, line?: number) => void;
  /** Number of lines seen so far in a file. */
  lineCount: (file: ReleaseFileName) => number;
  finish: () => ValidateReleaseResult;
};

type SampleRecord = {
  line: number;
  id: string | undefined;
  qid: string | undefined;
  sample: Sample | undefined;
};

type Location = { file: string; line: number };

const FILE_ORDER: readonly string[] = [META_FILE, KB_FILE, SPLIT_FILES.train, SPLIT_FILES.dev, SPLIT_FILES.test];

const SPLIT_BY_FILE: ReadonlyMap<string, Split> = new Map(SPLITS.map((split) => [SPLIT_FILES[split], split]));

const BOM = "\uFEFF";

function describeJsonError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function locate(location: Location, currentFile: string): string {
  return location.file === currentFile ? `line ${location.line}` : `${location.file}:${location.line}`;
}

function compareProblems(a: ReleaseProblem, b: ReleaseProblem): number {
  const fileDelta = FILE_ORDER.indexOf(a.file) - FILE_ORDER.indexOf(b.file);
  if (fileDelta !== 0) {
    return fileDelta;
  }
  return (a.line ?? 0) - (b.line ?? 0);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A sample line shaped like the participants' public test file (no gold). */
function looksLikePublicSample(value: Record<string, unknown>): boolean {
  return !("qid" in value) && !("explicit_text" in value);
}

function fieldOf(schema: z.ZodType<string>, value: unknown): string | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** 1-based line of a JSON.parse error position in a whole-file text, if the message has one. */
function lineOfJsonError(text: string, message: string): number | undefined {
  const match = /position (\d+)/.exec(message);
  if (match?.[1] === undefined) {
    return undefined;
  }
  const position = Number(match[1]);
  let line = 1;
  for (let index = 0; index < position && index < text.length; index += 1) {
    if (text.charCodeAt(index) === 10) {
      line += 1;
    }
  }
  return line;
}

/** What a validator has seen so far; the steps below read and add to it. */
type ValidatorState = {
  splits: readonly Split[];
  problems: ReleaseProblem[];
  started: Set<string>;
  unreadable: Set<string>;
  lineCounts: Map<string, number>;
  kbLineByQid: Map<string, number>;
  entities: Entity[];
  records: Record<Split, SampleRecord[]>;
  meta: DatasetMeta | undefined;
  isFastPath: boolean;
};

function problem(state: ValidatorState, file: string, line: number | undefined, message: string): void {
  state.problems.push(line === undefined ? { file, message } : { file, line, message });
}

function parseObjectLine(state: ValidatorState, file: string, line: number, text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    problem(state, file, line, `malformed JSON: ${describeJsonError(error)}`);
    return undefined;
  }
  if (!isPlainObject(value)) {
    problem(state, file, line, `expected a JSON object, got ${describeValueType(value)}`);
    return undefined;
  }
  return value;
}

function parseEntity(state: ValidatorState, line: number, value: Record<string, unknown>): Entity | undefined {
  const fast = state.isFastPath ? wellFormedEntity(value) : null;
  if (fast !== null) {
    return fast;
  }
  const parsed = entitySchema.safeParse(value);
  if (parsed.success) {
    return parsed.data;
  }
  for (const issue of parsed.error.issues) {
    problem(state, KB_FILE, line, describeIssue(issue, value));
  }
  return undefined;
}

function addKbObject(state: ValidatorState, line: number, value: Record<string, unknown>): void {
  const entity = parseEntity(state, line, value);
  // The qid is registered even when other fields are wrong, so duplicates
  // and unknown sample qids are not reported twice over one mistake.
  const qid = entity?.qid ?? fieldOf(qidSchema, value.qid);
  if (qid === undefined) {
    return;
  }
  const firstLine = state.kbLineByQid.get(qid);
  if (firstLine !== undefined) {
    problem(state, KB_FILE, line, `duplicate qid "${qid}" (first seen on line ${firstLine})`);
    return;
  }
  state.kbLineByQid.set(qid, line);
  if (entity !== undefined) {
    state.entities.push(entity);
  }
}

function addSampleObject(state: ValidatorState, file: SplitFile, split: Split, line: number, value: Record<string, unknown>): void {
  const fast = state.isFastPath ? wellFormedSample(value) : null;
  if (fast !== null) {
    state.records[split].push({ line, id: fast.id, qid: fast.qid, sample: fast });
    return;
  }
  const parsed = sampleSchema.safeParse(value);
  if (!parsed.success) {
    let issues = parsed.error.issues;
    if (looksLikePublicSample(value)) {
      problem(state, 
        file,
        line,
        'missing fields "qid" and "explicit_text": this looks like a public (participant) file with id, ' +
          "collection and implicit_text only; a gold release needs qid and explicit_text on every sample",
      );
      issues = issues.filter((issue) => issue.path[0] !== "qid" && issue.path[0] !== "explicit_text");
    }
    for (const issue of issues) {
      problem(state, file, line, describeIssue(issue, value));
    }
  }
  state.records[split].push({
    line,
    id: fieldOf(sampleSchema.shape.id, value.id),
    qid: fieldOf(qidSchema, value.qid),
    sample: parsed.success ? parsed.data : undefined,
  });
}

function addLine(state: ValidatorState, file: typeof KB_FILE | SplitFile, raw: string): void {
  state.started.add(file);
  const line = (state.lineCounts.get(file) ?? 0) + 1;
  state.lineCounts.set(file, line);
  const split = SPLIT_BY_FILE.get(file);
  if (split !== undefined && !state.splits.includes(split)) {
    return;
  }
  let text = line === 1 && raw.startsWith(BOM) ? raw.slice(BOM.length) : raw;
  if (text.endsWith("\r")) {
    text = text.slice(0, -1);
  }
  if (text.trim().length === 0) {
    return;
  }
  const value = parseObjectLine(state, file, line, text);
  if (value === undefined) {
    return;
  }
  if (split === undefined) {
    addKbObject(state, line, value);
  } else {
    addSampleObject(state, file as SplitFile, split, line, value);
  }
}

function addMetaText(state: ValidatorState, raw: string): void {
  state.started.add(META_FILE);
  const text = raw.startsWith(BOM) ? raw.slice(BOM.length) : raw;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = describeJsonError(error);
    problem(state, META_FILE, lineOfJsonError(text, message), `malformed JSON: ${message}`);
    return;
  }
  if (!isPlainObject(value)) {
    problem(state, META_FILE, undefined, `expected a JSON object, got ${describeValueType(value)}`);
    return;
  }
  const parsed = datasetMetaSchema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problem(state, META_FILE, undefined, describeIssue(issue, value));
    }
    return;
  }
  state.meta = parsed.data;
}

function isAvailable(state: ValidatorState, file: string): boolean {
  return state.started.has(file) && !state.unreadable.has(file);
}

function checkFilesPresent(state: ValidatorState): void {
  const required: string[] = [META_FILE, KB_FILE, ...state.splits.map((split) => SPLIT_FILES[split])];
  for (const file of required) {
    if (!state.started.has(file) && !state.unreadable.has(file)) {
      problem(state, file, undefined, "missing file");
    }
  }
  if (isAvailable(state, KB_FILE) && state.kbLineByQid.size === 0 && !state.problems.some((p) => p.file === KB_FILE)) {
    problem(state, KB_FILE, undefined, "no entities: the file is empty");
  }
  for (const split of state.splits) {
    const file = SPLIT_FILES[split];
    if (isAvailable(state, file) && state.records[split].length === 0 && !state.problems.some((p) => p.file === file)) {
      problem(state, file, undefined, "no samples: the file is empty");
    }
  }
}

/** Duplicate ids, qids missing from the KB and entities shared by splits, in canonical split order. */
function checkAcrossSamples(state: ValidatorState): void {
  const firstById = new Map<string, Location>();
  const firstByQid = new Map<string, Location & { split: Split }>();
  const canCheckKb = isAvailable(state, KB_FILE);
  for (const split of state.splits) {
    const file = SPLIT_FILES[split];
    for (const record of state.records[split]) {
      if (record.id !== undefined) {
        const first = firstById.get(record.id);
        if (first === undefined) {
          firstById.set(record.id, { file, line: record.line });
        } else {
          problem(state, file, record.line, `duplicate id "${record.id}" (first seen on ${locate(first, file)})`);
        }
      }
      if (record.qid === undefined) {
        continue;
      }
      if (canCheckKb && !state.kbLineByQid.has(record.qid)) {
        problem(state, file, record.line, `qid "${record.qid}" is not in ${KB_FILE}`);
      }
      const home = firstByQid.get(record.qid);
      if (home === undefined) {
        firstByQid.set(record.qid, { file, line: record.line, split });
      } else if (home.split !== split) {
        problem(state, 
          file,
          record.line,
          `entity "${record.qid}" is also in the ${home.split} split (${home.file}:${home.line}); ` +
            "splits are entity-level and must not share entities",
        );
      }
    }
  }
}

function findLeakage(state: ValidatorState): LeakageFinding[] {
  const entityByQid = new Map(state.entities.map((entity) => [entity.qid, entity]));
  const matchers = new Map<string, LeakageMatcher>();
  const findings: LeakageFinding[] = [];
  for (const split of state.splits) {
    const file = SPLIT_FILES[split];
    for (const record of state.records[split]) {
      const sample = record.sample;
      const entity = sample === undefined ? undefined : entityByQid.get(sample.qid);
      if (sample === undefined || entity === undefined) {
        continue;
      }
      let matcher = matchers.get(entity.qid);
      if (matcher === undefined) {
        matcher = createLeakageMatcher([entity.name, ...entity.aliases]);
        matchers.set(entity.qid, matcher);
      }
      const matched = matcher.find(sample.implicit_text);
      if (matched !== undefined) {
        findings.push({ file, line: record.line, id: sample.id, qid: sample.qid, matched });
      }
    }
  }
  return findings;
}

function finishStep(state: ValidatorState, options: ValidateReleaseOptions): ValidateReleaseResult {
  checkFilesPresent(state);
  checkAcrossSamples(state);
  if (state.problems.length > 0 || state.meta === undefined) {
    if (state.problems.length === 0) {
      problem(state, META_FILE, undefined, "missing file");
    }
    return { ok: false, problems: [...state.problems].sort(compareProblems) };
  }
  const samples: Record<Split, Sample[]> = { train: [], dev: [], test: [] };
  for (const split of state.splits) {
    samples[split] = state.records[split].flatMap((record) => (record.sample === undefined ? [] : [record.sample]));
  }
  return { ok: true, release: { meta: state.meta, entities: state.entities, samples }, leakage: options.isLeakageSkipped === true ? [] : findLeakage(state) };
}

export function createReleaseValidator(options: ValidateReleaseOptions = {}): ReleaseValidator {
  const state: ValidatorState = {
    splits: SPLITS.filter((split) => (options.splits ?? SPLITS).includes(split)),
    problems: [],
    started: new Set<string>(),
    unreadable: new Set<string>(),
    lineCounts: new Map<string, number>(),
    kbLineByQid: new Map<string, number>(),
    entities: [],
    records: { train: [], dev: [], test: [] },
    meta: undefined,
    isFastPath: options.isFastPathDisabled !== true,
  };
  return {
    startFile: (file) => {
      state.started.add(file);
    },
    addMetaText: (text) => addMetaText(state, text),
    addLine: (file, text) => addLine(state, file, text),
    addUndecodableLine: (file, message) => {
      state.started.add(file);
      const line = (state.lineCounts.get(file) ?? 0) + 1;
      state.lineCounts.set(file, line);
      const split = SPLIT_BY_FILE.get(file);
      if (split === undefined || state.splits.includes(split)) {
        problem(state, file, line, message);
      }
    },
    reportUnreadableFile: (file, message, line) => {
      state.unreadable.add(file);
      problem(state, file, line, message);
    },
    lineCount: (file) => state.lineCounts.get(file) ?? 0,
    finish: () => finishStep(state, options),
  };
}

/** Whole-file input for validateRelease: the text of a file, or its lines. */
export type ReleaseTexts = Partial<Record<ReleaseFileName, string | readonly string[]>>;

function splitLines(content: string | readonly string[]): readonly string[] {
  return typeof content === "string" ? content.split("\n") : content;
}

/**
 * Validates a release held in memory (tests, small uploads). A file left out
 * of `texts` is reported missing.
 * @internal exported for its unit test (and the tests of other modules); the platform does not call it.
 */
export function validateRelease(texts: ReleaseTexts, options: ValidateReleaseOptions = {}): ValidateReleaseResult {
  const validator = createReleaseValidator(options);
  const metaText = texts[META_FILE];
  if (metaText !== undefined) {
    validator.addMetaText(typeof metaText === "string" ? metaText : metaText.join("\n"));
  }
  const lineFiles: (typeof KB_FILE | SplitFile)[] = [KB_FILE, ...SPLITS.map((split) => SPLIT_FILES[split])];
  for (const file of lineFiles) {
    const content = texts[file];
    if (content === undefined) {
      continue;
    }
    validator.startFile(file);
    for (const line of splitLines(content)) {
      validator.addLine(file, line);
    }
  }
  return validator.finish();
}
