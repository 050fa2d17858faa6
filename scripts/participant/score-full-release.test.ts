import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { synthesizePredictions } from "@/testing/synthetic/synth-predictions";
import { synthesizeRelease, writeRelease } from "@/testing/synthetic/synth-release";
import { readRelease } from "@/lib/platform/io/read-release";
import { validatePredictionFile } from "@/lib/platform/io/validate-prediction-file";
import type { NamedOutcomes } from "@/lib/core/scoring/compare";
import { formatReportTable } from "@/lib/core/scoring/format-report-table";
import { buildGold, buildKbIndex, type GoldRecord, type KbIndex } from "@/lib/core/scoring/gold";
import { buildScoreReport } from "@/lib/core/scoring/score-report";
import { computeOutcomes } from "@/lib/core/scoring/track-predictions";

/**
 * The compiled scorer's fast paths (the release read as one JSON array per
 * file, the closed-track byte scanner, zod loaded only when needed, baseline
 * files in worker threads) against the reference path on the full-size
 * synthetic release (4,633 test samples, KB 12,337): readRelease, the
 * prediction-file validator and the scoring functions called in this process,
 * as the leaderboard's worker does. Reports must be byte-identical, as JSON
 * and as tables, for open and closed files and with baselines of both tracks.
 */

const ROOT = path.resolve(__dirname, "../..");
const BUNDLE = path.join(ROOT, "dist", "cli", "irc-bench-score.mjs");
const BUILD = path.join(ROOT, "scripts", "build", "build-cli.mjs");
const run = promisify(execFile);
const SEED = 42;
const RESAMPLES = 200;

let dir = "";
let releaseDir = "";
let gold: GoldRecord[] = [];
let kb: KbIndex = new Map();
const files = { closed: "", open: "", closedBaselines: [] as string[], openBaseline: "" };

beforeAll(async () => {
  await run(process.execPath, [BUILD, "--if-stale", "scorer"], { cwd: ROOT });
  dir = await mkdtemp(path.join(tmpdir(), "score-full-release-"));
  const release = synthesizeRelease({ seed: 42, size: "full" });
  releaseDir = path.join(dir, "release");
  await writeRelease(releaseDir, release);
  const samples = release.samples.test;
  const write = async (name: string, track: "open" | "closed", accuracy: number, seed: number) => {
    const file = path.join(dir, name);
    await writeFile(file, `${synthesizePredictions({ samples, entities: release.entities, track, accuracy, seed }).join("\n")}\n`);
    return file;
  };
  files.closed = await write("closed.jsonl", "closed", 0.35, 1);
  files.open = await write("open.jsonl", "open", 0.35, 2);
  for (let b = 0; b < 4; b += 1) {
    files.closedBaselines.push(await write(`closed-baseline-${b}.jsonl`, "closed", 0.2 + 0.1 * b, 100 + b));
  }
  files.openBaseline = await write("open-baseline.jsonl", "open", 0.3, 200);

  const read = await readRelease(releaseDir, { splits: ["test"], isMetaOptional: true });
  if (!read.ok) throw new Error(`the synthetic release is invalid: ${read.problems[0]?.message}`);
  kb = buildKbIndex(read.release.entities);
  gold = buildGold(read.release.samples.test, kb);
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function referenceOutcomes(file: string) {
  const result = await validatePredictionFile(file, { sampleIds: gold.map((sample) => sample.id), kbQids: kb, split: "test" });
  if (!result.ok) throw new Error(`${file} is invalid: ${result.problems[0]?.message}`);
  return computeOutcomes({ ...result, gold, kb });
}

/** What the scorer must print, computed the reference way. */
async function referenceOutput(predictions: string, baselineFiles: readonly string[], isJson: boolean): Promise<string> {
  const baselines: NamedOutcomes[] = [];
  for (const file of baselineFiles) {
    baselines.push({ name: file, outcomes: await referenceOutcomes(file) });
  }
  const report = buildScoreReport({ split: "test", gold, baselines, seed: SEED, resamples: RESAMPLES, outcomes: await referenceOutcomes(predictions) });
  return isJson ? `${JSON.stringify(report, null, 2)}\n` : formatReportTable(report, { seed: SEED, resamples: RESAMPLES, source: predictions });
}

async function scorerOutput(predictions: string, baselineFiles: readonly string[], isJson: boolean, bootstrapThread = ""): Promise<string> {
  const args = ["--release", releaseDir, "--split", "test", "--predictions", predictions, "--seed", String(SEED), "--resamples", String(RESAMPLES)];
  const { stdout } = await run(process.execPath, [BUNDLE, ...args, ...baselineFiles.flatMap((file) => ["--baseline", file]), ...(isJson ? ["--json"] : [])], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, IRC_BENCH_SCORE_BOOTSTRAP_THREAD: bootstrapThread },
  });
  return stdout;
}

describe("the compiled scorer on the full-size release gives the reference path's reports byte for byte", () => {
  it("for one closed-track file (the byte scanner), with and without the bootstrap thread", async () => {
    const expected = await referenceOutput(files.closed, [], true);
    expect(await scorerOutput(files.closed, [], true, "1")).toBe(expected);
    expect(await scorerOutput(files.closed, [], true, "0")).toBe(expected);
  }, 120_000);

  it("for one open-track file (the full validator, loaded on need)", async () => {
    expect(await scorerOutput(files.open, [], true)).toBe(await referenceOutput(files.open, [], true));
  }, 120_000);

  it("with baselines of both tracks checked in worker threads, as JSON and as tables", async () => {
    const baselines = [...files.closedBaselines, files.openBaseline];
    expect(await scorerOutput(files.closed, baselines, true)).toBe(await referenceOutput(files.closed, baselines, true));
    expect(await scorerOutput(files.open, baselines, false)).toBe(await referenceOutput(files.open, baselines, false));
  }, 180_000);
});
