/**
 * npm run bench:score
 *
 * Times the scoring job on the full-size synthetic release (paper sizes: test
 * split of 4,633 samples, KB of 12,337 entities): validate a prediction file
 * (streamed from disk, as the worker and the CLI do), score it with bootstrap
 * intervals overall and per type, and compare it with 20 stored baselines
 * (McNemar, exact p, Holm). Both tracks; closed-world rankings hold 100 QIDs.
 * Prints medians, min and max per phase and the peak memory as markdown.
 *
 * Then the command-line scorer as a participant runs it, whole process (Node
 * start, reading the release, validating, scoring, printing the JSON): the
 * compiled bundle and `npm run --silent score` on one closed-track file of the
 * test split, alone and with 20 closed-track baseline files, median of 5 runs
 * after a warm-up. `-- --with-tsx` adds the uncompiled scripts/participant/score.ts run by
 * tsx (how npm run score ran before the bundle), for comparison; `-- --cli-only`
 * prints only the command-line tables; `-- --python-only` only the phases and
 * the comparison with the Python reference.
 * Then the bundle against the plain-Python reference scorer
 * (testing/reference/irc_bench_score.py, standard library only), whole
 * processes in turn (Node, Python, Node, ...), on the same closed-track file
 * alone and with the same 20 baselines: medians, the ratio Python / Node pair
 * by pair, and the Node runs once with the cache warm (the usual second
 * run: the release and the baselines' outcomes read from the cache) and once
 * with `--no-cache` (a first run: the release and every baseline read and
 * validated). Before timing, both outputs are checked: the same metrics
 * (overall, per type, per collection) and the same comparisons to the last
 * digit, and with `--prng xoshiro` (the Node scorer's documented stream) the
 * whole report, intervals included; the run fails loudly if they differ.
 * It asserts nothing about time (conventions: benchmarks print, tests assert).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { synthesizePredictions } from "@/testing/synthetic/synth-predictions";
import { synthesizeRelease, writeRelease } from "@/testing/synthetic/synth-release";
import { validatePredictionFile } from "@/lib/platform/io/validate-prediction-file";
import { compareWithBaselines, type NamedOutcomes } from "@/lib/core/scoring/compare";
import { buildGold, buildKbIndex } from "@/lib/core/scoring/gold";
import { buildScoreReport, primaryMetricOf, SCORER_VERSION } from "@/lib/core/scoring/score-report";
import { computeOutcomes } from "@/lib/core/scoring/track-predictions";
import type { Track } from "@/lib/core/scoring/tracks";
import { validatePredictionLines, type PredictionValidationResult } from "@/lib/core/scoring/validate-predictions";
import { formatDecimal } from "@/lib/core/format/numbers";
import { parseCommandLine } from "../command-line";

const RELEASE_SEED = 42;
const RUNS = 7;
const BASELINES = 20;
const ENTRY_ACCURACY = 0.35;
const MIB = 1024 * 1024;
const CLI_RUNS = 5;
const ROOT = path.resolve(__dirname, "../..");
const BUNDLE = path.join(ROOT, "dist", "cli", "irc-bench-score.mjs");
const PYTHON_REFERENCE = path.join(ROOT, "testing", "reference", "irc_bench_score.py");
const PYTHON = "python3";
const execFileAsync = promisify(execFile);

type Phase = "validate" | "score" | "compare" | "total";
const PHASES: readonly Phase[] = ["validate", "score", "compare", "total"];
const PHASE_LABEL: Record<Phase, string> = {
  validate: "validate (streamed from file)",
  score: "score + bootstrap CIs (overall, 7 types)",
  compare: `compare with ${BASELINES} baselines (McNemar, exact, Holm)`,
  total: "total job",
};

const peak = { rss: 0, heapUsed: 0 };
function sampleMemory(): void {
  const usage = process.memoryUsage();
  peak.rss = Math.max(peak.rss, usage.rss);
  peak.heapUsed = Math.max(peak.heapUsed, usage.heapUsed);
}

function expectValid(result: PredictionValidationResult, what: string): asserts result is PredictionValidationResult & { ok: true } {
  if (!result.ok) {
    throw new Error(`${what} is invalid: ${result.problems[0]?.message ?? "?"}`);
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const ms = (value: number) => formatDecimal(value, 1);

/** `-- --cli-only`, `-- --python-only` and `-- --with-tsx` (see the header); read once, before any work. */
const FLAGS = parseCommandLine({
  name: "npm run bench:score",
  usage: "Usage: npm run bench:score [-- --cli-only | --python-only] [--with-tsx]\nTimes the scoring job in process, the command-line scorer as whole processes, and the scorer against the plain-Python reference, on the full-size synthetic release.",
  options: { "cli-only": { type: "boolean" }, "python-only": { type: "boolean" }, "with-tsx": { type: "boolean" } },
}).values;

// eslint-disable-next-line max-lines-per-function -- a benchmark's script, read top to bottom
async function main(): Promise<void> {
  const setupStart = performance.now();
  const release = synthesizeRelease({ seed: RELEASE_SEED, size: "full" });
  const synthMs = performance.now() - setupStart;
  const kb = buildKbIndex(release.entities);
  const samples = release.samples.test;
  const gold = buildGold(samples, kb);
  const sampleIds = samples.map((sample) => sample.id);
  const dir = await mkdtemp(path.join(tmpdir(), "irc-bench-score-"));
  const results: string[] = [];

  // `-- --cli-only`: just the whole-process table (the CLI targets), without the in-process phases.
  const tracks: readonly Track[] = FLAGS["cli-only"] === true || FLAGS["python-only"] === true ? [] : ["closed", "open"];
  try {
    for (const track of tracks) {
      const entryLines = synthesizePredictions({
        samples,
        entities: release.entities,
        track,
        accuracy: ENTRY_ACCURACY,
        seed: 1,
      });
      const entryFile = path.join(dir, `${track}-entry.jsonl`);
      await writeFile(entryFile, `${entryLines.join("\n")}\n`, "utf8");

      // Baselines are stored outcomes on the server; prepare them outside the timings.
      const baselinePrepStart = performance.now();
      const baselines: NamedOutcomes[] = [];
      for (let b = 0; b < BASELINES; b += 1) {
        const lines = synthesizePredictions({
          samples,
          entities: release.entities,
          track,
          accuracy: 0.2 + (0.3 * b) / BASELINES,
          seed: 100 + b,
        });
        const baselineCheckStart = performance.now();
        const validation = await validatePredictionLines(lines, { sampleIds, kbQids: kb, track });
        expectValid(validation, `baseline ${b}`);
        baselines.push({ name: `baseline-${b}`, outcomes: computeOutcomes({ ...validation, gold, kb }) });
        baselinePrepMs += performance.now() - baselineCheckStart;
      }
      const baselinesWallMs = performance.now() - baselinePrepStart;

      const timings: Record<Phase, number[]> = { validate: [], score: [], compare: [], total: [] };
      for (let run = 0; run < RUNS; run += 1) {
        const t0 = performance.now();
        // The worker's path: byte lines, strict UTF-8, the 64 KiB line limit.
        const validation = await validatePredictionFile(entryFile, { sampleIds, kbQids: kb, split: "test" });
        expectValid(validation, "entry");
        sampleMemory();
        const t1 = performance.now();
        const outcomes = computeOutcomes({ ...validation, gold, kb });
        const report = buildScoreReport({ split: "test", outcomes, gold });
        sampleMemory();
        const t2 = performance.now();
        const comparisons = compareWithBaselines(outcomes, baselines);
        const t3 = performance.now();
        sampleMemory();
        timings.validate.push(t1 - t0);
        timings.score.push(t2 - t1);
        timings.compare.push(t3 - t2);
        timings.total.push(t3 - t0);
        if (run === 0) {
          const primary = primaryMetricOf(report);
          results.push(
            `${track}: n = ${report.n}, primary = ${formatDecimal(primary, 4)}, ${comparisons.length} comparisons, ` +
              `first p_holm = ${comparisons[0]?.p_holm.toExponential(3) ?? "-"}`,
          );
        }
      }

      console.log(`\n### ${track}-world track, test split (${samples.length} samples, KB ${kb.size})\n`);
      console.log(`| phase | median ms | min ms | max ms |`);
      console.log(`| --- | ---: | ---: | ---: |`);
      for (const phase of PHASES) {
        const values = timings[phase];
        console.log(`| ${PHASE_LABEL[phase]} | ${ms(median(values))} | ${ms(Math.min(...values))} | ${ms(Math.max(...values))} |`);
      }
      console.log(
        `\nPreparing ${BASELINES} baseline files (in-memory validate + outcomes, the CLI's --baseline path): ` +
          `${ms(baselinePrepMs)} ms of ${ms(baselinesWallMs)} ms including synthesis.`,
      );
      baselinePrepMs = 0;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  await benchCli(release);

  console.log(`\nScorer ${SCORER_VERSION}, ${RUNS} runs per phase, Node ${process.version}, release synthesis ${ms(synthMs)} ms.`);
  if (tracks.length > 0) {
    console.log(`Peak memory of the in-process phases: rss ${ms(peak.rss / MIB)} MiB, heapUsed ${ms(peak.heapUsed / MIB)} MiB.`);
  }
  for (const line of results) {
    console.log(`- ${line}`);
  }
}

let baselinePrepMs = 0;

type CliVariant = { label: string; command: string; prefix: readonly string[] };

/** Wall time of one whole CLI process, from spawn to exit; fails loudly unless it scored (exit 0). */
/** GNU time, when installed, reports the CPU a whole process used (all its threads): a figure other jobs on the machine disturb far less than wall time. */
const GNU_TIME = "/usr/bin/time";

type CliTiming = { wallMs: number; cpuMs: number | null };

/** Wall time of one whole CLI process, from spawn to exit, and its user + system CPU; fails loudly unless it scored (exit 0). */
async function timeCli(variant: CliVariant, args: readonly string[], cpuFile?: string): Promise<CliTiming> {
  const isCpuMeasured = cpuFile !== undefined && existsSync(GNU_TIME);
  const [command, prefix] = isCpuMeasured
    ? [GNU_TIME, ["-o", cpuFile, "-f", "%U %S", variant.command, ...variant.prefix]]
    : [variant.command, [...variant.prefix]];
  const started = performance.now();
  await execFileAsync(command, [...prefix, ...args], { cwd: ROOT, maxBuffer: 64 * MIB });
  const wallMs = performance.now() - started;
  if (!isCpuMeasured) return { wallMs, cpuMs: null };
  const [user = Number.NaN, system = Number.NaN] = (await readFile(cpuFile, "utf8")).trim().split(/\s+/).map(Number);
  return { wallMs, cpuMs: (user + system) * 1000 };
}

/**
 * The bundle's own phase timings for one case (IRC_BENCH_SCORE_TIMINGS=1,
 * scripts/participant/score-timings.ts): median wall and CPU per phase over CLI_RUNS runs.
 */
async function printPhases(args: readonly string[], label: string): Promise<void> {
  const byPhase = new Map<string, { wall: number[]; cpu: number[] }>();
  // A warm-up: the page cache, and the cache's entries, as in every counted run.
  await execFileAsync(process.execPath, [BUNDLE, ...args], { cwd: ROOT, maxBuffer: 64 * MIB });
  for (let run = 0; run < CLI_RUNS; run += 1) {
    const { stderr } = await execFileAsync(process.execPath, [BUNDLE, ...args], {
      cwd: ROOT,
      maxBuffer: 64 * MIB,
      env: { ...process.env, IRC_BENCH_SCORE_TIMINGS: "1" },
    });
    for (const match of stderr.matchAll(/^timing: (.+?)\s+([\d.]+) ms(?:\s+cpu\s+([\d.]+) ms)?$/gm)) {
      const [, phase = "", wall = "0", cpu] = match;
      const entry = byPhase.get(phase) ?? { wall: [], cpu: [] };
      entry.wall.push(Number(wall));
      if (cpu !== undefined) entry.cpu.push(Number(cpu));
      byPhase.set(phase, entry);
    }
  }
  console.log(`\nPhases, ${label} (IRC_BENCH_SCORE_TIMINGS=1, median of ${CLI_RUNS}; CPU of all threads, start-up CPU on the module line):\n`);
  console.log("| phase | wall ms | CPU ms |");
  console.log("| --- | ---: | ---: |");
  for (const [phase, { wall, cpu }] of byPhase) {
    if (median(wall) === 0 && cpu.every((value) => value === 0)) continue;
    console.log(`| ${phase} | ${ms(median(wall))} | ${cpu.length === 0 ? "-" : ms(median(cpu))} |`);
  }
}

async function benchCli(release: ReturnType<typeof synthesizeRelease>): Promise<void> {
  const variants: CliVariant[] = [
    { label: "`node irc-bench-score.mjs` (the bundle)", command: process.execPath, prefix: [BUNDLE] },
    { label: "`npm run --silent score` (launcher + bundle)", command: "npm", prefix: ["run", "--silent", "score", "--"] },
  ];
  if (FLAGS["with-tsx"] === true) {
    const tsx = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
    variants.push({ label: "`tsx scripts/participant/score.ts` (uncompiled, no worker threads)", command: process.execPath, prefix: [tsx, "scripts/participant/score.ts"] });
  }
  // The launcher builds when stale; build first so no timed run includes a build.
  await execFileAsync(process.execPath, [path.join(ROOT, "scripts", "build", "build-cli.mjs"), "--if-stale"], { cwd: ROOT });

  const dir = await mkdtemp(path.join(tmpdir(), "irc-bench-cli-"));
  // The scorer's cache, for this benchmark only (inherited by every run below).
  process.env.IRC_BENCH_CACHE_DIR = path.join(dir, "cache");
  try {
    const releaseDir = path.join(dir, "release");
    await writeRelease(releaseDir, release);
    const samples = release.samples.test;
    const writePredictions = async (name: string, accuracy: number, seed: number): Promise<string> => {
      const file = path.join(dir, name);
      const lines = synthesizePredictions({ samples, entities: release.entities, track: "closed", accuracy, seed });
      await writeFile(file, `${lines.join("\n")}\n`, "utf8");
      return file;
    };
    const entry = await writePredictions("closed-entry.jsonl", ENTRY_ACCURACY, 1);
    const baselineFiles: string[] = [];
    for (let b = 0; b < BASELINES; b += 1) {
      baselineFiles.push(await writePredictions(`closed-baseline-${b}.jsonl`, 0.2 + (0.3 * b) / BASELINES, 100 + b));
    }
    const base = ["--release", releaseDir, "--split", "test", "--predictions", entry, "--json"];
    // Issue 12's targets for the whole process on this kind of machine (2 cores).
    const cases = [
      { label: "1 closed-track file, 0 baselines", args: base, targetSeconds: 0.3 },
      { label: `1 closed-track file, ${BASELINES} baselines`, args: [...base, ...baselineFiles.flatMap((file) => ["--baseline", file])], targetSeconds: 0.8 },
    ];

    console.log(`\n### Command-line scorer, whole process, test split (${samples.length} samples, KB ${release.entities.length}, rankings of 100 QIDs)\n`);
    console.log(`1-min load average before: ${formatDecimal((loadavg()[0] ?? 0), 1)} on ${cpus().length} CPUs\n`);
    console.log(`| command | case | median s | min s | max s | target s | met | CPU s (user + sys, median) |`);
    console.log(`| --- | --- | ---: | ---: | ---: | ---: | --- | ---: |`);
    const cpuFile = path.join(dir, "cpu.txt");
    // `-- --python-only`: the phases and the comparison with the Python reference, without this table's runs.
    for (const variant of FLAGS["python-only"] === true ? [] : variants) {
      for (const { label, args, targetSeconds } of cases) {
        await timeCli(variant, args); // warm-up: page cache, and the launcher's freshness check
        const timings: CliTiming[] = [];
        for (let run = 0; run < CLI_RUNS; run += 1) {
          timings.push(await timeCli(variant, args, cpuFile));
        }
        const times = timings.map((timing) => timing.wallMs);
        const cpu = timings.flatMap((timing) => (timing.cpuMs === null ? [] : [timing.cpuMs]));
        const s = (value: number) => formatDecimal((value / 1000), 2);
        const met = median(times) / 1000 < targetSeconds ? "yes" : "no";
        const cpuText = cpu.length === 0 ? "-" : s(median(cpu));
        console.log(`| ${variant.label} | ${label} | ${s(median(times))} | ${s(Math.min(...times))} | ${s(Math.max(...times))} | ${targetSeconds} | ${met} | ${cpuText} |`);
      }
    }
    for (const { label, args } of cases) {
      await printPhases(args, `${label}, cache warm`);
      await printPhases([...args, "--no-cache"], `${label}, --no-cache: release and baselines read and validated`);
    }
    await benchVsPython(cases, dir);
    const startup: number[] = [];
    await timeCli(variants[0] as CliVariant, ["--help"]);
    for (let run = 0; run < CLI_RUNS; run += 1) {
      startup.push((await timeCli(variants[0] as CliVariant, ["--help"])).wallMs);
    }
    console.log(`\nStartup (\`node irc-bench-score.mjs --help\`): median ${formatDecimal((median(startup) / 1000), 3)} s of ${CLI_RUNS} runs.`);
    console.log(`1-min load average after: ${formatDecimal((loadavg()[0] ?? 0), 1)}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

type CliCase = { label: string; args: readonly string[] };
type Report = Record<string, unknown>;

/** The comparisons' p-values: the reference computes p_exact exactly in integers and p with math.erfc, so these agree to a relative tolerance. */
const P_VALUE_KEYS = new Set(["p", "p_exact", "p_holm"]);
const P_VALUE_TOLERANCE = 1e-9;

type Agreement = { differences: string[]; largestRelativeP: number; largestInterval: number };

/**
 * Walks two reports side by side: every value equal to the last digit,
 * except p-values (within P_VALUE_TOLERANCE, relative) and, unless
 * `isIntervalChecked`, the intervals, whose largest difference is noted.
 */
function agreementOf(a: unknown, b: unknown, isIntervalChecked: boolean): Agreement {
  const agreement: Agreement = { differences: [], largestRelativeP: 0, largestInterval: 0 };
  const walk = (x: unknown, y: unknown, at: string, key: string, isInterval: boolean): void => {
    if (typeof x === "number" && typeof y === "number") {
      if (P_VALUE_KEYS.has(key)) {
        const relative = x === y ? 0 : Math.abs(x - y) / Math.max(Math.abs(x), Math.abs(y));
        agreement.largestRelativeP = Math.max(agreement.largestRelativeP, relative);
        if (relative > P_VALUE_TOLERANCE) agreement.differences.push(`${at}: ${x} / ${y}`);
      } else if (isInterval && !isIntervalChecked) {
        agreement.largestInterval = Math.max(agreement.largestInterval, Math.abs(x - y));
      } else if (x !== y) {
        agreement.differences.push(`${at}: ${x} / ${y}`);
      }
      return;
    }
    if (typeof x === "object" && x !== null && typeof y === "object" && y !== null) {
      const left = x as Record<string, unknown>;
      const right = y as Record<string, unknown>;
      const keys = Object.keys(left);
      if (keys.join("\0") !== Object.keys(right).join("\0")) {
        agreement.differences.push(`${at}: keys ${keys.join(", ")} / ${Object.keys(right).join(", ")}`);
        return;
      }
      for (const name of keys) walk(left[name], right[name], `${at}.${name}`, Array.isArray(x) ? key : name, isInterval || name === "ci95");
      return;
    }
    if (x !== y) agreement.differences.push(`${at}: ${String(x)} / ${String(y)}`);
  };
  walk(a, b, "report", "", false);
  return agreement;
}

async function jsonOf(command: string, args: readonly string[]): Promise<Report> {
  const { stdout } = await execFileAsync(command, args.includes("--json") ? [...args] : [...args, "--json"], { cwd: ROOT, maxBuffer: 64 * MIB });
  return JSON.parse(stdout) as Report;
}

/**
 * Fails unless the Python reference gives the Node scorer's report: with
 * its own stream, the same n, metrics (overall, per type, per collection)
 * and comparison counts to the last digit and p-values within
 * P_VALUE_TOLERANCE; with the Node scorer's stream (--prng xoshiro, on 100
 * resamples, which costs the pure-Python xoshiro a few seconds rather than a
 * minute) the intervals to the last digit too.
 */
async function checkPythonAgrees(cases: readonly CliCase[]): Promise<void> {
  for (const { label, args } of cases) {
    const stdlib = agreementOf(await jsonOf(process.execPath, [BUNDLE, ...args]), await jsonOf(PYTHON, [PYTHON_REFERENCE, ...args]), false);
    const resamples = ["--resamples", "100"];
    const exact = agreementOf(
      await jsonOf(process.execPath, [BUNDLE, ...args, ...resamples]),
      await jsonOf(PYTHON, [PYTHON_REFERENCE, ...args, ...resamples, "--prng", "xoshiro"]),
      true,
    );
    const differences = [...stdlib.differences, ...exact.differences.map((line) => `--prng xoshiro ${line}`)];
    if (differences.length > 0) {
      throw new Error(`${label}: the Python reference's report differs from the Node scorer's:\n${differences.slice(0, 10).join("\n")}`);
    }
    const largestP = Math.max(stdlib.largestRelativeP, exact.largestRelativeP);
    console.log(
      `- ${label}: n, metrics (overall, per type, per collection), b, c and chi2 identical, p-values within ${largestP.toExponential(1)} relative; ` +
        `with --prng xoshiro (100 resamples) every interval identical too; with Python's own stream the intervals differ by at most ${formatDecimal(stdlib.largestInterval, 4)}`,
    );
  }
}

async function benchVsPython(cases: readonly CliCase[], dir: string): Promise<void> {
  try {
    await execFileAsync(PYTHON, ["--version"]);
  } catch {
    console.log(`\nNo ${PYTHON} on this machine: the comparison with the Python reference is skipped.`);
    return;
  }
  const { stdout: version } = await execFileAsync(PYTHON, ["--version"]);
  console.log(`\n### The bundle against the plain-Python reference (${version.trim()}, testing/reference/irc_bench_score.py), whole processes in turn\n`);
  await checkPythonAgrees(cases);
  console.log(`\n1-min load average before: ${formatDecimal(loadavg()[0] ?? 0, 1)} on ${cpus().length} CPUs\n`);
  console.log("| case | Node | Node median s | Python median s | Python / Node, median of pairs (min - max) | CPU s Node / Python (user + sys, medians) |");
  console.log("| --- | --- | ---: | ---: | ---: | ---: |");
  const python: CliVariant = { label: "python", command: PYTHON, prefix: [PYTHON_REFERENCE] };
  const node: CliVariant = { label: "node", command: process.execPath, prefix: [BUNDLE] };
  const cpuFile = path.join(dir, "cpu-pairs.txt");
  const s = (value: number) => formatDecimal(value / 1000, 2);
  for (const { label, args } of cases) {
    for (const [nodeLabel, nodeArgs] of [["cache warm", args], ["--no-cache", [...args, "--no-cache"]]] as const) {
      // The reference keeps no cache: it always gets the arguments without --no-cache.
      const pair = await alternatePair(node, nodeArgs, python, args, cpuFile);
      const cpuText = pair.nodeCpu === null || pair.pythonCpu === null ? "-" : `${s(pair.nodeCpu)} / ${s(pair.pythonCpu)}`;
      const ratios = pair.ratios;
      console.log(
        `| ${label} | ${nodeLabel} | ${s(pair.node)} | ${s(pair.python)} | ${formatDecimal(median(ratios), 1)}x (${formatDecimal(Math.min(...ratios), 1)} - ${formatDecimal(Math.max(...ratios), 1)}) | ${cpuText} |`,
      );
    }
  }
  console.log(`\n1-min load average after: ${formatDecimal(loadavg()[0] ?? 0, 1)}`);
}

/** Node and Python in turn, a warm-up each, then CLI_RUNS pairs: wall medians and the Python / Node ratio pair by pair. */
async function alternatePair(node: CliVariant, nodeArgs: readonly string[], python: CliVariant, pythonArgs: readonly string[], cpuFile: string) {
  await timeCli(node, nodeArgs);
  await timeCli(python, pythonArgs);
  const nodeRuns: CliTiming[] = [];
  const pythonRuns: CliTiming[] = [];
  for (let run = 0; run < CLI_RUNS; run += 1) {
    nodeRuns.push(await timeCli(node, nodeArgs, cpuFile));
    pythonRuns.push(await timeCli(python, pythonArgs, cpuFile));
  }
  const ratios = pythonRuns.map((timing, i) => timing.wallMs / (nodeRuns[i]?.wallMs ?? Number.NaN));
  const cpu = (runs: CliTiming[]) => {
    const values = runs.flatMap((timing) => (timing.cpuMs === null ? [] : [timing.cpuMs]));
    return values.length === 0 ? null : median(values);
  };
  return { node: median(nodeRuns.map((t) => t.wallMs)), python: median(pythonRuns.map((t) => t.wallMs)), ratios, nodeCpu: cpu(nodeRuns), pythonCpu: cpu(pythonRuns) };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
