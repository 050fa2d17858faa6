/**
 * npm run --silent score -- --release DIR --split dev --predictions FILE
 *     [--baseline FILE ...] [--track open|closed] [--seed 42] [--resamples 1000] [--json]
 *
 * The offline scorer (protocol section 11): the same validation and scoring
 * code the worker runs. Exit 0 scored; 1 the predictions or a baseline file
 * are invalid (one line per problem on stderr, FILE:LINE: message); 2 usage
 * error or an unreadable or invalid release.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { stat } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { joinScoringRelease, readScoringKb, readScoringSplit, type ScoringSample } from "@/lib/platform/io/read-scoring-release";
import { SPLIT_FILES } from "@/lib/core/dataset/release-constants";
import { resolveReleaseFile } from "@/lib/platform/io/resolve-release-file";
import { readLines } from "@/lib/platform/io/read-lines";
import type { NamedOutcomes } from "@/lib/core/scoring/compare";
import type { SampleOutcomes } from "@/lib/core/scoring/outcome-codes";
import { formatReportTable } from "@/lib/core/scoring/format-report-table";
import { buildGold, buildKbIndex, type GoldRecord, type KbIndex } from "@/lib/core/scoring/gold";
import { MAX_PREDICTION_FILE_BYTES } from "@/lib/core/scoring/limits";
import {
  closedOutcomesOf,
  closedOutcomesOfRanks,
  parseClosedRankings,
  prepareClosedScan,
  rankParsedClosed,
  type ClosedRankTable,
  type ClosedRanks,
  type ClosedScanContext,
  type ParsedClosedFile,
  type QidTable,
} from "@/lib/core/scoring/scan-closed-predictions";
import { bootstrapIntervals, type Interval } from "@/lib/core/scoring/bootstrap";
import { metricTablesOf } from "@/lib/core/scoring/metric-values";
import { bootstrapGroupsOf, buildScoreReport, SCORER_VERSION, type BootstrapGroupKey } from "@/lib/core/scoring/score-report";
import { scorerVersionLabel } from "@/lib/core/format/versions";
import { computeOutcomes } from "@/lib/core/scoring/track-predictions";
import type { Track } from "@/lib/core/scoring/tracks";
import type { PredictionValidationResult } from "@/lib/core/scoring/validate-predictions";
import { formatBytes } from "@/lib/core/format/bytes";
import {
  baselineOutcomesKey,
  readBaselineOutcomes,
  readReleaseCache,
  releaseCacheKey,
  scoreCacheDir,
  writeBaselineOutcomes,
  writeReleaseCache,
  type CachedRelease,
} from "./score-cache";
import { createPhaseTimer } from "./score-timings";
import { ExitError, loadFullValidation, parseCommandLine, USAGE } from "./score-args";
import type { Args } from "./score-full-validation";

/** IRC_BENCH_SCORE_TIMINGS=1: one "phase ms" line per phase on stderr (scripts/participant/score-timings.ts). */
const timer = createPhaseTimer(process.env.IRC_BENCH_SCORE_TIMINGS === "1" && isMainThread);

/** Whether this is the bundle: uncompiled (tsx scripts/participant/score.ts), a worker thread could not load this TypeScript file. */
const isBundled = !import.meta.url.endsWith(".ts");
const MAX_RELEASE_PROBLEMS_SHOWN = 50;

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

/** `releaseKey`: the cache key of the very bytes this gold was read from (a hit, or a store that found them unchanged); else null. */
type LoadedGold = { gold: GoldRecord[]; kb: KbIndex; scan: () => ClosedScanContext; releaseKey: string | null };

/** How the split file is read on the quick path: here, or on a scan thread while this thread reads the KB. */
type SplitReader = () => Promise<ScoringSample[] | null>;

/** The release cache's answer for this run: its key (null without one) and the release when it was there. */
type CacheLookup = { key: string | null; release: CachedRelease | null };
const NO_CACHE: CacheLookup = { key: null, release: null };

async function lookUpRelease(args: Args): Promise<CacheLookup> {
  // Uncompiled, the code is not one file whose bytes could name the build (score-cache.ts): no cache.
  if (args.noCache || !isBundled) return NO_CACHE;
  const key = await releaseCacheKey(args.release, args.split);
  const release = key === null ? null : await readReleaseCache(scoreCacheDir(), key);
  timer.mark(release === null ? "release cache: key (SHA-256 of the files), miss" : "release cache: key (SHA-256 of the files), hit");
  return { key, release };
}

/**
 * Keeps a release that has just passed validation, unless a file changed
 * while it was read (its key then is not that of the bytes validated): the
 * key it was kept under, or null.
 */
async function storeRelease(args: Args, lookup: CacheLookup, release: CachedRelease): Promise<string | null> {
  if (lookup.key === null || (await releaseCacheKey(args.release, args.split)) !== lookup.key) return null;
  await writeReleaseCache(scoreCacheDir(), lookup.key, release);
  timer.mark("release cache: stored");
  return lookup.key;
}

async function loadGold(
  args: Args,
  readSplit: SplitReader = () => readScoringSplit(args.release, args.split),
  lookup: CacheLookup = NO_CACHE,
): Promise<LoadedGold> {
  if (lookup.release !== null) {
    return indexGold(lookup.release.entities, lookup.release.samples, lookup.key);
  }
  // The common case: a valid release of the usual form, scanned as bytes; anything else is read and reported by readRelease.
  const [entities, samples] = await Promise.all([readScoringKb(args.release), readSplit()]);
  const scanned = entities === null || samples === null ? null : joinScoringRelease(entities, samples);
  if (scanned !== null) {
    timer.mark("release read (KB + gold split, validated)");
    return indexGold(scanned.entities, scanned.samples, await storeRelease(args, lookup, scanned));
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
  const validated = { entities: result.release.entities, samples: result.release.samples[args.split] };
  return indexGold(validated.entities, validated.samples, await storeRelease(args, lookup, validated));
}

function indexGold(entities: Parameters<typeof buildKbIndex>[0], samples: Parameters<typeof buildGold>[0], releaseKey: string | null): LoadedGold {
  const kb = buildKbIndex(entities);
  const gold = buildGold(samples, kb);
  timer.mark("KB index + gold join");
  let scan: ClosedScanContext | undefined;
  return { gold, kb, scan: () => (scan ??= prepareClosedScan(gold, kb)), releaseKey };
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

/** A baseline file the byte scanner could not take, validated and scored the full way. */
async function validateBaseline(file: string, loaded: LoadedGold, split: string): Promise<BaselineCheck> {
  const { gold, kb } = loaded;
  const result = await validateFile(file, { gold, kb, split });
  return result.ok ? { problems: [], outcomes: computeOutcomes({ ...result, gold, kb }) } : { problems: problemLines(file, result) };
}

/**
 * What the scan of one file gives: its parsed rankings (null when it is not
 * a closed-track file of the simple form); or, on a scan thread that has the
 * rank table, each sample's gold rank and top entity; or, for a baseline a
 * scan thread could not take that way, the full check that thread then ran
 * itself; or a baseline's outcomes from the cache. A baseline scanned with
 * the cache on also carries the key of its bytes, under which outcomes made
 * from the parsed or ranked form (those very bytes) are kept.
 */
type FileScan = ({ parsed: ParsedClosedFile | null } | { ranked: ClosedRanks } | { check: BaselineCheck } | { cached: SampleOutcomes }) & {
  outcomesKey?: string;
};

/** One file to scan; `releaseKey` (a baseline's, with the cache on) keys its outcomes in the cache. */
type ScanJob = { file: string; isBaseline: boolean; releaseKey: string | null };
type BootstrapRequest = { track: Track; seed: number; resamples: number; groups: [BootstrapGroupKey, Uint8Array][] };
type BootstrapReply = [BootstrapGroupKey, Interval[]][];
type ScanWorkerData = { kind: "irc-bench-scan"; argv: readonly string[] };
/** The rank table, sent to every scan thread once the gold is known (not a task: no reply). */
type RankTableMessage = { kind: "rank-table"; sampleIds: string[]; goldKbIndex: Int32Array; qidTable: QidTable };
type ScanWorkerTask =
  | { kind: "split"; release: string; split: Args["split"] }
  | ({ kind: "scan" } & ScanJob)
  | ({ kind: "bootstrap" } & BootstrapRequest);
type ScanWorkerRequest = ScanWorkerTask & { taskId: number };
type ScanWorkerReply = { taskId: number } & (
  | { kind: "split"; samples: ScoringSample[] | null }
  | { kind: "scan"; scan: FileScan }
  | { kind: "bootstrap"; intervals: BootstrapReply }
);

/** This thread's read buffer: a file's bytes are parsed before the next file is read, and nothing parsed keeps them. */
let readBuffer = Buffer.alloc(0);

/**
 * A file's bytes, read whole and at once (fs.promises.readFile reads in 512 KiB steps through the
 * thread pool, about 4x the CPU of one read for a 5.6 MB file) into the thread's one buffer, grown
 * when a file is larger: a new 5.6 MB buffer per file kept the collector busy. Valid until the next call.
 */
function readIntoBuffer(file: string): Uint8Array {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    if (readBuffer.length < size) readBuffer = Buffer.allocUnsafe(size);
    let offset = 0;
    while (offset < size) {
      const read = readSync(fd, readBuffer, offset, size - offset, offset);
      if (read === 0) break;
      offset += read;
    }
    return readBuffer.subarray(0, offset);
  } finally {
    closeSync(fd);
  }
}

/** A baseline's cache lookup, from the bytes just read: its outcomes when they are cached, and its key (none with the cache off). */
function lookUpOutcomes(job: ScanJob, bytes: Uint8Array): { outcomesKey?: string; cached?: SampleOutcomes } {
  if (!job.isBaseline || job.releaseKey === null) return {};
  const outcomesKey = baselineOutcomesKey(job.releaseKey, bytes);
  const cached = readBaselineOutcomes(scoreCacheDir(), outcomesKey);
  return cached === null ? { outcomesKey } : { outcomesKey, cached };
}

function readAndParse(job: ScanJob): Promise<FileScan> {
  return Promise.resolve().then((): FileScan => {
    const bytes = readIntoBuffer(job.file);
    const { outcomesKey, cached } = lookUpOutcomes(job, bytes);
    return cached !== undefined ? { cached, outcomesKey } : { parsed: parseClosedRankings(bytes), outcomesKey };
  });
}

function transferablesOf(reply: ScanWorkerReply): ArrayBuffer[] {
  if (reply.kind !== "scan") {
    return [];
  }
  const { scan } = reply;
  if ("cached" in scan) {
    return [scan.cached.codes.buffer as ArrayBuffer];
  }
  if ("check" in scan) {
    return scan.check.outcomes ? [scan.check.outcomes.codes.buffer as ArrayBuffer] : [];
  }
  if ("ranked" in scan) {
    return [scan.ranked.ranks.buffer as ArrayBuffer, scan.ranked.tops.buffer as ArrayBuffer];
  }
  return scan.parsed ? [scan.parsed.rankingStarts.buffer as ArrayBuffer, scan.parsed.qidNumbers.buffer as ArrayBuffer] : [];
}

/**
 * A turn of the event loop. The threads' replies are messages, not microtasks: a scan done here is
 * followed by one, or no reply would be received (and no thread given its next task) until this
 * thread had emptied the queue.
 */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

type Deferred<T> = { resolve: (value: T) => void; reject: (error: unknown) => void };

/**
 * Scan threads, started before anything else so that the work that needs no
 * KB is done while the main thread reads it: the split file (read and
 * checked line by line, readScoringSplit) and the prediction files (parsed
 * to QID numbers, parseClosedRankings). The main thread then joins the split
 * to the KB and turns each parsed file into outcomes (closedOutcomesOf, a few
 * milliseconds). Tasks are taken in the order they were asked for, two at
 * a time per thread; the main thread takes whatever no thread has taken
 * when it gets to it. A baseline a thread cannot parse it
 * checks the full way itself, reading the release for that (as every
 * baseline thread did before), so open-track baselines are still validated
 * in parallel. Once the files are done, an idle thread computes the per-type
 * bootstrap intervals. With no threads (uncompiled, or one file on a busy
 * machine) the main thread does each task when it gets to it. Results are
 * used in argument order, so the output does not depend on which thread
 * finished first.
 */
class ScanPool {
  private readonly workers: Worker[] = [];
  /** Tasks posted to each thread and not answered yet: two at most, so a thread has its next task while the main thread is busy. */
  private readonly inFlight = new Map<Worker, number>();
  private readonly queue: ScanWorkerRequest[] = [];
  private readonly pending = new Map<number, Deferred<ScanWorkerReply>>();
  /** Scans the main thread took back from the queue and did itself, by task. */
  private readonly stolen = new Map<number, Promise<FileScan>>();
  private nextTaskId = 0;

  constructor(argv: readonly string[], threads: number) {
    for (let i = 0; i < threads; i += 1) {
      const data: ScanWorkerData = { kind: "irc-bench-scan", argv };
      const worker = new Worker(new URL(import.meta.url), { workerData: data });
      worker.on("message", (reply: ScanWorkerReply) => this.receive(worker, reply));
      worker.on("error", (error) => this.fail(error));
      worker.on("exit", (code) => this.fail(new Error(`scan worker exited with ${code}`)));
      this.workers.push(worker);
      this.inFlight.set(worker, 0);
    }
  }

  get size(): number {
    return this.workers.length;
  }

  /** The release's split file, read on a thread, or (without threads) here when called. */
  readSplit(release: string, split: Args["split"]): SplitReader {
    if (this.workers.length === 0) {
      return () => readScoringSplit(release, split);
    }
    const samples = this.submit({ kind: "split", release, split }).reply.then((reply) => (reply.kind === "split" ? reply.samples : null));
    return () => samples;
  }

  /**
   * The scan of one file: under way on a thread, or, when no thread has
   * taken it yet by the time it is needed (or there are no threads), done
   * here then. While a thread still works on it, the main thread does the
   * last scans of the queue itself, so that it works through the queue too
   * once it has nothing else to do.
   */
  scan(job: ScanJob): () => Promise<FileScan> {
    if (this.workers.length === 0) {
      return () => readAndParse(job);
    }
    const { taskId, reply } = this.submit({ kind: "scan", ...job });
    let isAnswered = false;
    const scan = reply.then((answer): FileScan => {
      isAnswered = true;
      return answer.kind === "scan" ? answer.scan : { parsed: null };
    });
    return async () => {
      const stolen = this.stolen.get(taskId);
      if (stolen !== undefined) {
        return stolen;
      }
      if (this.withdraw(taskId)) {
        const result = await readAndParse(job);
        await nextTurn();
        return result;
      }
      await this.helpWhile(() => !isAnswered);
      return scan;
    };
  }

  /** Does queued scans, the last first, as long as `isWaiting` says so. */
  private async helpWhile(isWaiting: () => boolean): Promise<void> {
    while (isWaiting()) {
      const at = this.queue.findLastIndex((task) => task.kind === "scan");
      const task = this.queue[at];
      if (task === undefined || task.kind !== "scan") {
        return;
      }
      this.queue.splice(at, 1);
      this.pending.delete(task.taskId);
      const result = readAndParse(task);
      this.stolen.set(task.taskId, result);
      await result;
      await nextTurn();
    }
  }

  /** Intervals computed on a thread (protocol section 9: each group has its own stream, so any thread gives the same bits); null without one. */
  bootstrap(request: BootstrapRequest): Promise<BootstrapReply> | null {
    if (this.workers.length === 0) {
      return null;
    }
    return this.submit({ kind: "bootstrap", ...request }).reply.then((reply) => (reply.kind === "bootstrap" ? reply.intervals : []));
  }

  /** From now on the threads rank the files they parse themselves (rankParsedClosed) and send back two small arrays. */
  shareRankTable(context: ClosedScanContext): void {
    const message: RankTableMessage = { kind: "rank-table", sampleIds: context.gold.map((sample) => sample.id), goldKbIndex: context.goldKbIndex, qidTable: context.qidTable };
    this.workers.forEach((worker) => worker.postMessage(message));
  }

  terminate(): void {
    this.workers.forEach((worker) => void worker.terminate());
  }

  private submit(task: ScanWorkerTask): { taskId: number; reply: Promise<ScanWorkerReply> } {
    const taskId = this.nextTaskId;
    this.nextTaskId += 1;
    const reply = new Promise<ScanWorkerReply>((resolve, reject) => this.pending.set(taskId, { resolve, reject }));
    // Awaited later, in argument order; without this a thread's failure before then would be an unhandled rejection.
    reply.catch(() => undefined);
    this.queue.push({ ...task, taskId });
    this.dispatch();
    return { taskId, reply };
  }

  /** Takes a task back if no thread has it yet (its reply then never comes); false when it is already posted. */
  private withdraw(taskId: number): boolean {
    const at = this.queue.findIndex((task) => task.taskId === taskId);
    if (at < 0) {
      return false;
    }
    this.queue.splice(at, 1);
    this.pending.delete(taskId);
    return true;
  }

  private dispatch(): void {
    for (const worker of this.workers) {
      while ((this.inFlight.get(worker) ?? 0) < 2 && this.queue.length > 0) {
        worker.postMessage(this.queue.shift() as ScanWorkerRequest);
        this.inFlight.set(worker, (this.inFlight.get(worker) ?? 0) + 1);
      }
    }
  }

  private receive(worker: Worker, reply: ScanWorkerReply): void {
    this.pending.get(reply.taskId)?.resolve(reply);
    this.pending.delete(reply.taskId);
    this.inFlight.set(worker, (this.inFlight.get(worker) ?? 1) - 1);
    this.dispatch();
  }

  private fail(error: unknown): void {
    this.pending.forEach((deferred) => deferred.reject(error));
    this.pending.clear();
  }
}

function runScanWorker(data: ScanWorkerData): void {
  let fallback: Promise<{ loaded: LoadedGold; split: string }> | undefined;
  const loadFallback = async () => {
    const args = await parseCommandLine(data.argv);
    if (args === "help" || args === "version") {
      throw new Error(`scan worker started for --${args}`);
    }
    return { loaded: await loadGold(args), split: args.split };
  };
  let rankTable: ClosedRankTable | undefined;
  // A file ranked here leaves only two small arrays: its numbers' array is the next file's (parsed files sent whole are not).
  let scratch: Int32Array | undefined;
  const scanJob = async (job: ScanJob): Promise<FileScan> => {
    const bytes = readIntoBuffer(job.file);
    const { outcomesKey, cached } = lookUpOutcomes(job, bytes);
    if (cached !== undefined) {
      return { cached, outcomesKey };
    }
    const reused = scratch;
    scratch = undefined;
    const parsed = parseClosedRankings(bytes, reused);
    const ranked = parsed !== null && rankTable !== undefined ? rankParsedClosed(parsed, rankTable) : null;
    if (parsed !== null && ranked !== null) {
      scratch = new Int32Array(parsed.qidNumbers.buffer);
      return { ranked, outcomesKey };
    }
    if (!job.isBaseline || (parsed !== null && rankTable === undefined)) {
      return { parsed, outcomesKey };
    }
    const { loaded, split } = await (fallback ??= loadFallback());
    return { check: await validateBaseline(job.file, loaded, split) };
  };
  const handle = async (request: ScanWorkerRequest): Promise<ScanWorkerReply> => {
    const { taskId } = request;
    if (request.kind === "split") {
      return { taskId, kind: "split", samples: await readScoringSplit(request.release, request.split) };
    }
    if (request.kind === "scan") {
      return { taskId, kind: "scan", scan: await scanJob(request) };
    }
    const tables = metricTablesOf(request.track);
    const options = { seed: request.seed, resamples: request.resamples };
    const intervals = request.groups.map(([group, codes]): [BootstrapGroupKey, Interval[]] => [group, bootstrapIntervals(codes, tables, options)]);
    return { taskId, kind: "bootstrap", intervals };
  };
  parentPort?.on("message", (request: ScanWorkerRequest | RankTableMessage) => {
    if (request.kind === "rank-table") {
      const sampleIndexById = new Map(request.sampleIds.map((id, index) => [id, index]));
      rankTable = { sampleIndexById, goldKbIndex: request.goldKbIndex, qidTable: request.qidTable };
      return;
    }
    // A failure rejects here and reaches the main thread as the worker's "error" event; the main thread terminates this thread at the end.
    void handle(request).then((reply) => parentPort?.postMessage(reply, transferablesOf(reply)));
  });
}

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
 * With baselines, a scan thread per core besides the main thread, which
 * works through the queue too once it is done with the KB and the entry
 * (a thread costs ~100 ms of CPU to boot: a thread per core besides it used
 * more CPU for no shorter run), at most one per baseline. One file alone
 * gets a thread only with a core to spare.
 */
function scanThreadCount(baselineCount: number): number {
  if (!isBundled) {
    return 0; // Uncompiled, a worker thread could not load this TypeScript file.
  }
  if (baselineCount > 0) {
    return Math.max(1, Math.min(availableParallelism() - 1, baselineCount));
  }
  return hasSpareCore() ? 1 : 0;
}

/** The entry's outcomes from its scan, or the full validator's result (with its problems) when the scan could not take it. */
async function entryResult(scan: Promise<FileScan> | null, args: Args, loaded: LoadedGold): Promise<PredictionValidationResult | SampleOutcomes> {
  const scanned = scan === null ? null : await scan;
  if (scanned !== null && "parsed" in scanned && scanned.parsed !== null) {
    const codes = closedOutcomesOf(scanned.parsed, loaded.scan());
    if (codes !== null) {
      return { track: "closed", codes };
    }
  }
  return validateFile(args.predictions, { gold: loaded.gold, kb: loaded.kb, split: args.split, track: args.track });
}

/** A baseline's outcomes from the cache, when they fit this split (the key holds the release, so they always should). */
function cachedOutcomesOf(scanned: FileScan, loaded: LoadedGold): SampleOutcomes | null {
  return "cached" in scanned && scanned.cached.codes.length === loaded.gold.length ? scanned.cached : null;
}

/**
 * A baseline's check: its cached outcomes, or its scan turned into outcomes, or the full
 * validator's. Outcomes made from the scan are of the bytes its key was made of: they are kept
 * under that key when this run's gold is of the release the key names.
 */
async function baselineResult(scanned: FileScan, job: ScanJob, loaded: LoadedGold, split: string): Promise<BaselineCheck> {
  const cached = cachedOutcomesOf(scanned, loaded);
  if (cached !== null) {
    return { problems: [], outcomes: cached };
  }
  if ("check" in scanned) {
    return scanned.check;
  }
  const codes =
    "ranked" in scanned
      ? closedOutcomesOfRanks(scanned.ranked, loaded.scan())
      : "parsed" in scanned && scanned.parsed !== null
        ? closedOutcomesOf(scanned.parsed, loaded.scan())
        : null;
  if (codes === null) {
    return validateBaseline(job.file, loaded, split);
  }
  const outcomes: SampleOutcomes = { track: "closed", codes };
  if (scanned.outcomesKey !== undefined && job.releaseKey !== null && job.releaseKey === loaded.releaseKey) {
    await writeBaselineOutcomes(scoreCacheDir(), scanned.outcomesKey, outcomes);
  }
  return { problems: [], outcomes };
}

/** The report's intervals: the whole split here, the types on a scan thread when there is one. */
async function computeIntervals(
  pool: ScanPool,
  gold: readonly GoldRecord[],
  outcomes: SampleOutcomes,
  args: Args,
): Promise<Map<BootstrapGroupKey, readonly Interval[]>> {
  const options = { seed: args.seed, resamples: args.resamples };
  const groups = bootstrapGroupsOf(gold, outcomes).filter(([group]) => group !== "all");
  const pending = pool.bootstrap({ track: outcomes.track, ...options, groups });
  if (pending === null) {
    return new Map();
  }
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
  if (args === "version") {
    process.stdout.write(`${scorerVersionLabel(SCORER_VERSION)}\n`);
    return 0;
  }
  const files = [args.predictions, ...args.baseline];
  // Started first: the threads boot while the files are checked and the release is read.
  const pool = new ScanPool(argv, scanThreadCount(args.baseline.length));
  try {
    for (const file of files) {
      await checkFileSize(file);
    }
    return await scoreWith(args, pool);
  } finally {
    pool.terminate();
  }
}

async function scoreWith(args: Args, pool: ScanPool): Promise<number> {
  // Looked up first (the threads boot meanwhile): on a hit no thread needs to read the split.
  const lookup = await lookUpRelease(args);
  const readSplit = lookup.release === null ? pool.readSplit(args.release, args.split) : undefined;
  // The entry is parsed on this thread, between its reads of the KB: the scan threads read the split and take the baselines.
  const entryScan = args.track === "open" ? null : readAndParse({ file: args.predictions, isBaseline: false, releaseKey: null });
  entryScan?.catch(() => undefined);
  const baselineJobs = args.baseline.map((file): ScanJob => ({ file, isBaseline: true, releaseKey: lookup.key }));
  const baselineScans = baselineJobs.map((job) => pool.scan(job));
  const loaded = await loadGold(args, readSplit, lookup);
  if (pool.size > 0 && args.baseline.length > 0) {
    pool.shareRankTable(loaded.scan());
  }
  const entry = await entryResult(entryScan, args, loaded);
  timer.mark("prediction scan/validation");
  const checks: BaselineCheck[] = [];
  let fromCache = 0;
  for (const [i, scan] of baselineScans.entries()) {
    const scanned = await scan();
    fromCache += cachedOutcomesOf(scanned, loaded) === null ? 0 : 1;
    checks.push(await baselineResult(scanned, baselineJobs[i] as ScanJob, loaded, args.split));
  }
  timer.mark(`baseline files (${fromCache} of ${checks.length} from the cache)`);
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
  const intervals = await computeIntervals(pool, loaded.gold, outcomes, args);
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

function isScanWorkerData(value: unknown): value is ScanWorkerData {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "irc-bench-scan";
}

if (!isMainThread && isScanWorkerData(workerData)) {
  runScanWorker(workerData);
} else {
  timer.start();
  run(process.argv.slice(2)).then(
    (status) => {
      process.exitCode = status;
      // Once stdout has taken the report, end the process rather than wait for the scan threads to wind down and the
      // heaps to be torn down (some 60 ms on 2 cores); the callback runs after the write is flushed, pipe or file.
      process.stdout.write("", () => process.exit());
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
