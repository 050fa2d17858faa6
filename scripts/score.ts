/**
 * npm run --silent score -- --release DIR --split dev --predictions FILE
 *     [--baseline FILE ...] [--track open|closed] [--seed 42] [--resamples 1000] [--json]
 *
 * The offline scorer (protocol section 11): the same validation and scoring
 * code the worker runs. Exit 0 scored; 1 the predictions or a baseline file
 * are invalid (one line per problem on stderr, FILE:LINE: message); 2 usage
 * error or an unreadable or invalid release.
 */
import { readFile, stat } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { readScoringRelease } from "@/lib/dataset/read-scoring-release";
import { SPLIT_FILES } from "@/lib/dataset/release-constants";
import { resolveReleaseFile } from "@/lib/dataset/resolve-release-file";
import { readLines } from "@/lib/io/read-lines";
import type { NamedOutcomes } from "@/lib/scoring/compare";
import type { SampleOutcomes } from "@/lib/scoring/outcome-codes";
import { formatReportTable } from "@/lib/scoring/format-report-table";
import { buildGold, buildKbIndex, type GoldRecord, type KbIndex } from "@/lib/scoring/gold";
import {
  DEFAULT_BOOTSTRAP_RESAMPLES,
  DEFAULT_BOOTSTRAP_SEED,
  MAX_BOOTSTRAP_RESAMPLES,
  MAX_PREDICTION_FILE_BYTES,
  MAX_PREDICTION_LENGTH,
  MAX_RANKING_LENGTH,
} from "@/lib/scoring/limits";
import { prepareClosedScan, scanClosedPredictions, type ClosedScanContext } from "@/lib/scoring/scan-closed-predictions";
import { bootstrapIntervals, type Interval } from "@/lib/scoring/bootstrap";
import { metricTablesOf } from "@/lib/scoring/metric-values";
import { bootstrapGroupsOf, buildScoreReport, type BootstrapGroupKey } from "@/lib/scoring/score-report";
import { computeOutcomes } from "@/lib/scoring/track-predictions";
import type { Track } from "@/lib/scoring/tracks";
import type { PredictionValidationResult } from "@/lib/scoring/validate-predictions";
import { formatBytes } from "@/lib/format/bytes";
import { createPhaseTimer } from "./score-timings";

type FullValidation = typeof import("./score-full-validation");
let fullValidation: Promise<FullValidation> | undefined;

/**
 * zod and everything that reports problems with its messages (the release
 * validator, the prediction-file validator, the command line's schema),
 * loaded on first need: a valid closed-track run of the usual form needs
 * none of it. In the bundle this import is a second, self-contained module
 * that scripts/build-cli.mjs embeds as a data: URL, so Node neither parses
 * nor evaluates it unless it is needed.
 */
function loadFullValidation(): Promise<FullValidation> {
  fullValidation ??= import("./score-full-validation");
  return fullValidation;
}

/** IRC_BENCH_SCORE_TIMINGS=1: one "phase ms" line per phase on stderr (scripts/score-timings.ts). */
const timer = createPhaseTimer(process.env.IRC_BENCH_SCORE_TIMINGS === "1" && isMainThread);

/** Whether this is the bundle: uncompiled (tsx scripts/score.ts), a worker thread could not load this TypeScript file. */
const isBundled = !import.meta.url.endsWith(".ts");
/** Baseline files' worth of work the main thread does besides its share: the entry's file and its bootstrap. */
const MAIN_THREAD_EXTRA_FILES = 3;
const MAX_RELEASE_PROBLEMS_SHOWN = 50;
const MIB = 1024 * 1024;

const USAGE = `Usage: npm run --silent score -- --release DIR --split dev|test --predictions FILE
           [--baseline FILE ...] [--track open|closed] [--seed N] [--resamples N] [--json]

Scores an IRC-Bench prediction file exactly as the leaderboard server does.

  --release DIR        release directory: kb.jsonl and the split's file (dev.jsonl,
                       or test.jsonl with gold qids), plus dataset.json if present.
                       A folder with the site's dev.jsonl and kb.jsonl downloads works
  --split SPLIT        dev or test. The test.jsonl that participants download has
                       no gold qids, so --split test only works on a maintainer's
                       gold release
  --predictions FILE   JSON Lines, one line per sample of the split:
                         open-world:   {"id": "...", "prediction": "entity name"}
                                       (a string of at most ${MAX_PREDICTION_LENGTH} characters)
                         closed-world: {"id": "...", "ranking": ["Q52418", ...]}
                                       (1 to ${MAX_RANKING_LENGTH} distinct QIDs from kb.jsonl, best first)
  --baseline FILE      a prediction file to compare with (repeatable; either track).
                       Same track: McNemar on the primary metric (alias for open,
                       hit@1 for closed); across tracks: on the unified alias-aware
                       top-1 metric. p-values are also Holm-adjusted across baselines
  --track TRACK        open or closed; default: read from the first line that has
                       "prediction" or "ranking"
  --seed N             bootstrap PRNG seed, a non-negative integer (default ${DEFAULT_BOOTSTRAP_SEED})
  --resamples N        bootstrap resamples, 1..${MAX_BOOTSTRAP_RESAMPLES} (default ${DEFAULT_BOOTSTRAP_RESAMPLES})
  --json               print one JSON object (the leaderboard's score report) instead
                       of tables; rates are fractions in [0, 1]
  -h, --help           show this help

Exit status: 0 scored; 1 the predictions or a baseline file are invalid (each
problem on stderr as FILE:LINE: message; files over ${MAX_PREDICTION_FILE_BYTES / MIB} MiB are refused);
2 usage error, or the release cannot be read or is invalid.

Scoring rules: docs/scoring.md.`;

/** What the command line means once checked (scripts/score-full-validation.ts has its zod schema, the contract). */
export type Args = {
  release: string;
  split: "dev" | "test";
  predictions: string;
  baseline: string[];
  track?: Track;
  seed: number;
  resamples: number;
  json: boolean;
};

type ArgValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

const DIGITS = /^\d+$/;

function quickInteger(value: unknown, fallback: number): number | null {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !DIGITS.test(value)) return null;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : null;
}

function isFilledString(value: unknown): value is string {
  return typeof value === "string" && value.length > 0;
}

/**
 * The command line checked by hand, for the common case: what argsSchema
 * (scripts/score-full-validation.ts) gives for values it accepts, or null,
 * and then the schema itself runs, for its messages. Keeps zod out of a
 * scorer run that needs none of it.
 */
function quickArgs(values: ArgValues): Args | null {
  const { release, split, predictions, baseline = [], track, json = false } = values;
  const seed = quickInteger(values.seed, DEFAULT_BOOTSTRAP_SEED);
  const resamples = quickInteger(values.resamples, DEFAULT_BOOTSTRAP_RESAMPLES);
  if (!isFilledString(release) || !isFilledString(predictions) || (split !== "dev" && split !== "test")) return null;
  if (!Array.isArray(baseline) || !baseline.every(isFilledString) || typeof json !== "boolean") return null;
  if (track !== undefined && track !== "open" && track !== "closed") return null;
  if (seed === null || resamples === null || resamples < 1 || resamples > MAX_BOOTSTRAP_RESAMPLES) return null;
  return { release, split, predictions, baseline, track, seed, resamples, json };
}

/** A failure that ends the run with an exit status and messages for stderr. */
class ExitError extends Error {
  constructor(
    readonly status: 1 | 2,
    readonly lines: readonly string[],
  ) {
    super(lines[0]);
  }
}

async function parseCommandLine(argv: readonly string[]): Promise<Args | "help"> {
  let values: ArgValues;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        release: { type: "string" },
        split: { type: "string" },
        predictions: { type: "string" },
        baseline: { type: "string", multiple: true },
        track: { type: "string" },
        seed: { type: "string" },
        resamples: { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: false,
    }));
  } catch (error) {
    throw new ExitError(2, [error instanceof Error ? error.message : String(error), "Run with --help for usage."]);
  }
  if (values.help === true) {
    return "help";
  }
  const quick = quickArgs(values);
  if (quick !== null) {
    return quick;
  }
  const parsed = (await loadFullValidation()).parseArgValues(values);
  if (!parsed.ok) {
    throw new ExitError(2, [...parsed.messages, "Run with --help for usage."]);
  }
  return parsed.args;
}

/** The released test.jsonl has no qid: say so plainly instead of listing a problem per line. */
async function assertSplitHasGold(dir: string, split: Args["split"]): Promise<void> {
  const resolution = await resolveReleaseFile(dir, SPLIT_FILES[split], true);
  if (!resolution.ok) {
    return; // readRelease names what was looked for.
  }
  const file = path.join(dir, resolution.name);
  try {
    for await (const { line } of readLines(file)) {
      if (line.trim().length === 0) {
        continue;
      }
      const first: unknown = JSON.parse(line.replace(/^\uFEFF/, ""));
      if (typeof first === "object" && first !== null && !Object.hasOwn(first, "qid")) {
        throw new ExitError(2, [
          `${file} has no gold: its samples carry no "qid" (this is the public ${split} file).`,
          `Scoring --split ${split} needs the maintainer's gold release; participants can score the dev split.`,
        ]);
      }
      return;
    }
  } catch (error) {
    if (error instanceof ExitError) {
      throw error;
    }
    // Unreadable or malformed: readRelease reports it with file and line.
  }
}

type LoadedGold = { gold: GoldRecord[]; kb: KbIndex; scan: () => ClosedScanContext };

async function loadGold(args: Args): Promise<LoadedGold> {
  // The common case: a valid release of the usual form, scanned as bytes; anything else is read and reported by readRelease.
  const scanned = await readScoringRelease(args.release, args.split);
  if (scanned !== null) {
    timer.mark("release read (KB + gold split, validated)");
    return indexGold(scanned.entities, scanned.samples);
  }
  await assertSplitHasGold(args.release, args.split);
  const { readRelease } = await loadFullValidation();
  const result = await readRelease(args.release, { splits: [args.split], isMetaOptional: true, isLeakageSkipped: true, isDigestSkipped: true });
  if (!result.ok) {
    const shown = result.problems.slice(0, MAX_RELEASE_PROBLEMS_SHOWN).map((problem) => {
      const file = problem.file === args.release ? problem.file : path.join(args.release, problem.file);
      return problem.line === undefined ? `${file}: ${problem.message}` : `${file}:${problem.line}: ${problem.message}`;
    });
    const more = result.problems.length - shown.length;
    throw new ExitError(2, [
      `The release in ${args.release} cannot be used:`,
      ...shown,
      ...(more > 0 ? [`... and ${more} more problems`] : []),
    ]);
  }
  timer.mark("release read (KB + gold split, validated)");
  return indexGold(result.release.entities, result.release.samples[args.split]);
}

function indexGold(entities: Parameters<typeof buildKbIndex>[0], samples: Parameters<typeof buildGold>[0]): LoadedGold {
  const kb = buildKbIndex(entities);
  const gold = buildGold(samples, kb);
  timer.mark("KB index + gold join");
  let scan: ClosedScanContext | undefined;
  return { gold, kb, scan: () => (scan ??= prepareClosedScan(gold, kb)) };
}

/**
 * The outcomes of a closed-track file straight from its bytes when it is in
 * the common, valid form (lib/scoring/scan-closed-predictions.ts); null for
 * an open-track file or anything else, which the full validator then reads.
 */
async function scanClosedFile(file: string, loaded: LoadedGold, track: Track | undefined): Promise<SampleOutcomes | null> {
  if (track === "open") {
    return null;
  }
  const codes = scanClosedPredictions(await readFile(file), loaded.scan());
  return codes === null ? null : { track: "closed", codes };
}

async function checkFileSize(file: string): Promise<void> {
  let bytes: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) {
      throw new ExitError(2, [`${file}: not a file`]);
    }
    bytes = info.size;
  } catch (error) {
    if (error instanceof ExitError) {
      throw error;
    }
    const reason = error instanceof Error && "code" in error && error.code === "ENOENT" ? "no such file" : String(error);
    throw new ExitError(2, [`${file}: cannot be read: ${reason}`]);
  }
  if (bytes > MAX_PREDICTION_FILE_BYTES) {
    throw new ExitError(1, [
      `${file}: ${formatBytes(bytes)} is over the ${formatBytes(MAX_PREDICTION_FILE_BYTES)} limit; the file was not read`,
    ]);
  }
}

async function validateFile(
  file: string,
  options: { gold: readonly GoldRecord[]; kb: KbIndex; split: string; track?: Track },
): Promise<PredictionValidationResult> {
  const { validatePredictionFile } = await loadFullValidation();
  return validatePredictionFile(file, {
    sampleIds: options.gold.map((sample) => sample.id),
    kbQids: options.kb,
    split: options.split,
    track: options.track,
  });
}

function problemLines(file: string, result: PredictionValidationResult): string[] {
  if (result.ok) {
    return [];
  }
  return result.problems.map((problem) =>
    problem.line === undefined ? `${file}: ${problem.message}` : `${file}:${problem.line}: ${problem.message}`,
  );
}

/** A baseline file checked: its FILE:LINE problem lines, and its outcomes when it is valid. */
type BaselineCheck = { problems: string[]; outcomes?: SampleOutcomes };

async function checkBaseline(file: string, loaded: LoadedGold, split: string): Promise<BaselineCheck> {
  const scanned = await scanClosedFile(file, loaded, undefined);
  if (scanned !== null) {
    return { problems: [], outcomes: scanned };
  }
  const { gold, kb } = loaded;
  const result = await validateFile(file, { gold, kb, split });
  return result.ok ? { problems: [], outcomes: computeOutcomes({ ...result, gold, kb }) } : { problems: problemLines(file, result) };
}

type BaselineWorkerData = { kind: "irc-bench-baselines"; argv: readonly string[]; indices: number[] };
type BaselineWorkerMessage = { index: number; check: BaselineCheck };

/**
 * Baseline files are checked in parallel (up to the number of cores): the
 * main thread takes the first files, fewer than an even share since it also
 * scores the entry, and each worker thread, this same file started again,
 * reads the release itself and takes its share of the rest.
 * Results are put back in argument order, so the output does not depend on
 * which thread finished first.
 */
function startBaselineWorkers(
  argv: readonly string[],
  baselineCount: number,
): { mainIndices: number[]; results: Promise<BaselineWorkerMessage[]>; terminate: () => void } {
  // Uncompiled, baseline files are checked sequentially.
  const threads = isBundled ? Math.min(availableParallelism(), baselineCount) : 1;
  const workerShares: number[][] = Array.from({ length: Math.max(0, threads - 1) }, () => []);
  // The main thread also scores the entry and runs its bootstrap, about MAIN_THREAD_EXTRA_FILES files' work: it takes fewer.
  const mainCount =
    workerShares.length === 0 ? baselineCount : Math.max(0, Math.round((baselineCount - MAIN_THREAD_EXTRA_FILES * workerShares.length) / threads));
  const mainIndices = Array.from({ length: mainCount }, (_, index) => index);
  for (let index = mainCount; index < baselineCount; index += 1) {
    workerShares[(index - mainCount) % workerShares.length]?.push(index);
  }
  const workers: Worker[] = [];
  const results = workerShares.map(
    (indices) =>
      new Promise<BaselineWorkerMessage[]>((resolve, reject) => {
        const data: BaselineWorkerData = { kind: "irc-bench-baselines", argv, indices };
        const worker = new Worker(new URL(import.meta.url), { workerData: data });
        workers.push(worker);
        const messages: BaselineWorkerMessage[] = [];
        worker.on("message", (message: BaselineWorkerMessage) => messages.push(message));
        worker.on("error", reject);
        worker.on("exit", (code) => (code === 0 ? resolve(messages) : reject(new Error(`baseline worker exited with ${code}`))));
      }),
  );
  const terminate = () => workers.forEach((worker) => void worker.terminate());
  return { mainIndices, results: Promise.all(results).then((lists) => lists.flat()), terminate };
}

async function runBaselineWorker(data: BaselineWorkerData): Promise<void> {
  const args = await parseCommandLine(data.argv);
  if (args === "help") {
    return;
  }
  const loaded = await loadGold(args);
  for (const index of data.indices) {
    const file = args.baseline[index] ?? "";
    const check = await checkBaseline(file, loaded, args.split);
    parentPort?.postMessage({ index, check } satisfies BaselineWorkerMessage, check.outcomes ? [check.outcomes.codes.buffer as ArrayBuffer] : []);
  }
}

type BootstrapWorkerData = { kind: "irc-bench-bootstrap" };
type BootstrapRequest = { track: Track; seed: number; resamples: number; groups: [BootstrapGroupKey, Uint8Array][] };
type BootstrapReply = [BootstrapGroupKey, Interval[]][];

/**
 * True when a core is idle: a thread costs some 50 ms of CPU to start, which
 * only pays when it runs beside the main thread rather than taking turns with
 * it (on a busy machine it made the run slower).
 */
function hasSpareCore(): boolean {
  const cores = availableParallelism();
  // IRC_BENCH_SCORE_BOOTSTRAP_THREAD=1 or 0 decides instead of the load (tests and benchmarks use it).
  const setting = process.env.IRC_BENCH_SCORE_BOOTSTRAP_THREAD;
  if (setting === "0" || cores < 2) return false;
  return setting === "1" || (loadavg()[0] ?? 0) <= cores - 1;
}

/**
 * A thread for the per-type bootstrap intervals (protocol section 9: each
 * group has its own stream, so any thread gives the same bits), started
 * first so it has booted by the time the outcomes are known: the main thread
 * then resamples the whole split while it resamples the seven types, about
 * half the draws each. Only with a core to spare and no baseline workers;
 * null otherwise, and the report computes every interval itself (the same
 * bits either way).
 */
function startBootstrapWorker(baselineCount: number) {
  if (!isBundled || baselineCount > 0 || !hasSpareCore()) {
    return null;
  }
  const worker = new Worker(new URL(import.meta.url), { workerData: { kind: "irc-bench-bootstrap" } satisfies BootstrapWorkerData });
  const failed = new Promise<never>((_, reject) => {
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`bootstrap worker exited with ${code}`)));
  });
  failed.catch(() => undefined);
  return {
    intervals: (request: BootstrapRequest): Promise<BootstrapReply> => {
      const reply = new Promise<BootstrapReply>((resolve) => worker.once("message", resolve));
      worker.postMessage(request);
      return Promise.race([reply, failed]);
    },
    terminate: () => void worker.terminate(),
  };
}

function runBootstrapWorker(): void {
  parentPort?.once("message", (request: BootstrapRequest) => {
    const tables = metricTablesOf(request.track);
    const options = { seed: request.seed, resamples: request.resamples };
    // The main thread terminates this thread once it has the reply.
    parentPort?.postMessage(request.groups.map(([group, codes]): [BootstrapGroupKey, Interval[]] => [group, bootstrapIntervals(codes, tables, options)]));
  });
}

/** The report's intervals: the whole split here, the types on the bootstrap thread when there is one. */
async function computeIntervals(
  bootstrapWorker: ReturnType<typeof startBootstrapWorker>,
  gold: readonly GoldRecord[],
  outcomes: SampleOutcomes,
  args: Args,
): Promise<Map<BootstrapGroupKey, readonly Interval[]>> {
  if (bootstrapWorker === null) {
    return new Map();
  }
  const options = { seed: args.seed, resamples: args.resamples };
  const groups = bootstrapGroupsOf(gold, outcomes).filter(([group]) => group !== "all");
  const pending = bootstrapWorker.intervals({ track: outcomes.track, ...options, groups });
  const intervals = new Map<BootstrapGroupKey, readonly Interval[]>([["all", bootstrapIntervals(outcomes.codes, metricTablesOf(outcomes.track), options)]]);
  try {
    for (const [group, groupIntervals] of await pending) {
      intervals.set(group, groupIntervals);
    }
  } catch {
    // The thread failed: the report computes the types' intervals itself.
  }
  return intervals;
}

async function run(argv: readonly string[]): Promise<number> {
  const args = await parseCommandLine(argv);
  if (args === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const files = [args.predictions, ...args.baseline];
  for (const file of files) {
    await checkFileSize(file);
  }
  const bootstrapWorker = startBootstrapWorker(args.baseline.length);
  try {
    return await scoreWith(args, argv, bootstrapWorker);
  } finally {
    bootstrapWorker?.terminate();
  }
}

async function scoreWith(args: Args, argv: readonly string[], bootstrapWorker: ReturnType<typeof startBootstrapWorker>): Promise<number> {
  const workers = startBaselineWorkers(argv, args.baseline.length);
  // Handled below; without this a worker's failure during loadGold would be an unhandled rejection.
  workers.results.catch(() => undefined);
  let entry: PredictionValidationResult | SampleOutcomes;
  const checks: BaselineCheck[] = [];
  let loaded: LoadedGold;
  try {
    loaded = await loadGold(args);
    const { gold, kb } = loaded;
    entry = (await scanClosedFile(args.predictions, loaded, args.track)) ?? (await validateFile(args.predictions, { gold, kb, split: args.split, track: args.track }));
    timer.mark("prediction scan/validation");
    for (const index of workers.mainIndices) {
      checks[index] = await checkBaseline(args.baseline[index] ?? "", loaded, args.split);
    }
    timer.mark("main thread's baselines");
    for (const { index, check } of await workers.results) {
      checks[index] = check;
    }
    timer.mark("waiting for baseline workers");
  } catch (error) {
    // An invalid release (or any failure here) ends the run now, not when the workers finish.
    workers.terminate();
    throw error;
  }
  const problems = [...("codes" in entry ? [] : problemLines(args.predictions, entry)), ...checks.flatMap((check) => check.problems)];
  if (problems.length > 0 || (!("codes" in entry) && !entry.ok)) {
    throw new ExitError(1, problems);
  }

  const baselines: NamedOutcomes[] = [];
  checks.forEach((check, i) => {
    if (check.outcomes !== undefined) {
      baselines.push({ name: args.baseline[i] ?? "", outcomes: check.outcomes });
    }
  });
  // scorePredictions is computeOutcomes then buildScoreReport: a scanned file only skips the first half.
  const outcomes = "codes" in entry ? entry : computeOutcomes({ ...entry, gold: loaded.gold, kb: loaded.kb });
  timer.mark("outcomes");
  const intervals = await computeIntervals(bootstrapWorker, loaded.gold, outcomes, args);
  const report = buildScoreReport({ split: args.split, gold: loaded.gold, baselines, seed: args.seed, resamples: args.resamples, outcomes, intervals });
  timer.mark("report (metrics, bootstrap CIs, McNemar)");
  if (args.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    process.stdout.write(formatReportTable(report, { seed: args.seed, resamples: args.resamples, source: args.predictions }));
  }
  timer.mark("output");
  timer.report();
  return 0;
}

function isBaselineWorkerData(value: unknown): value is BaselineWorkerData {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "irc-bench-baselines";
}

if (!isMainThread && isBaselineWorkerData(workerData)) {
  // A failure rejects here and reaches the main thread as the worker's "error" event.
  void runBaselineWorker(workerData);
} else if (!isMainThread && (workerData as Partial<BootstrapWorkerData> | null)?.kind === "irc-bench-bootstrap") {
  runBootstrapWorker();
} else {
  timer.start();
  run(process.argv.slice(2)).then(
    (status) => {
      process.exitCode = status;
    },
    (error: unknown) => {
      if (error instanceof ExitError) {
        for (const line of error.lines) {
          process.stderr.write(`${line}\n`);
        }
        process.exitCode = error.status;
        return;
      }
      process.stderr.write(`score: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
