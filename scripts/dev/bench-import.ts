/**
 * npm run bench:import [-- --runs 3] [-- --consecutive]
 *
 * Times the import of the full-size synthetic release (12,337 entities, 25,136
 * samples, 4,633 of them in the test split) into an emptied benchmark database
 * (DATABASE_URL's server, database irc_bench_bench).
 *
 * Default: the same release imported `--runs` times into an emptied database
 * (read, validate, leakage check, insert in one transaction); prints the median
 * and the spread as a markdown table.
 *
 * --consecutive: `--runs` different full-size releases (seeds 42, 43, ...)
 * imported one after the other into the same database, the way an operator
 * adds releases, each with its baselines queued (Redis logical database 8 of
 * REDIS_URL's server, emptied first): the whole of `npm run dataset:import`.
 * Every later release meets the rows of the earlier ones, which is where a
 * missing index or stale planner statistics show. Prints one line per release
 * as it finishes, then the table.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { integerOption, parseCommandLine } from "../command-line";
import { synthesizeRelease, writeRelease } from "@/testing/synthetic/synth-release";
import { requireLocalUrl } from "@/testing/local-database";
import { formatDecimal } from "@/lib/core/format/numbers";

const USAGE = `Usage: npm run bench:import [-- --runs N] [--consecutive]

Times the full-size synthetic release's import into an emptied benchmark database.

  --runs N         imports to time (default 3)
  --consecutive    N different releases one after the other, each with its
                   baselines queued, instead of the same release N times
  --help           show this help`;

type Timing = { label: string; seconds: number };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Points the process at the benchmark database (and, for --consecutive, Redis db 8 and a scratch data directory), migrated. */
async function pointAtBenchServices(withRedis: boolean): Promise<string> {
  const base = new URL(requireLocalUrl("DATABASE_URL", "bench:import"));
  base.pathname = "/irc_bench_bench";
  process.env.DATABASE_URL = base.toString();
  const scratch = await mkdtemp(path.join(os.tmpdir(), "irc-bench-import-"));
  // The baselines' "submission queued" lines would bury the timings.
  process.env.LOG_LEVEL ??= "warn";
  if (withRedis) {
    const redis = new URL(requireLocalUrl("REDIS_URL", "bench:import"));
    redis.pathname = "/8";
    process.env.REDIS_URL = redis.toString();
    process.env.IRC_DATA_DIR = path.join(scratch, "data");
  }
  execFileSync("node", ["scripts/ops/ensure-database.mjs"], { stdio: "inherit" });
  execFileSync("node", ["scripts/ops/prisma-migrate.mjs", "deploy"], { stdio: "ignore" });
  return scratch;
}

/** The same release, imported into an emptied database each run. */
async function timeRepeatedImport(scratch: string, runs: number): Promise<Timing[]> {
  const dir = path.join(scratch, "release");
  await writeRelease(dir, synthesizeRelease({ seed: 42, size: "full" }));
  const { db } = await import("@/lib/platform/db");
  const { importRelease } = await import("@/lib/domain/releases/import-release");
  const timings: Timing[] = [];
  for (let run = 0; run < runs; run += 1) {
    await db.$executeRawUnsafe(`TRUNCATE "DatasetRelease" CASCADE`);
    const started = performance.now();
    const result = await importRelease({ dir, activate: true });
    timings.push({ label: `run ${run + 1}`, seconds: (performance.now() - started) / 1000 });
    if (run === 0) console.error(`imported ${result.stats.kbEntities} entities, ${result.stats.splits.train.samples + result.stats.splits.dev.samples + result.stats.splits.test.samples} samples`);
  }
  return timings;
}

/** Different releases one after the other, each with its baselines queued, as `npm run dataset:import -- DIR --activate` does. */
async function timeConsecutiveImports(scratch: string, runs: number): Promise<Timing[]> {
  const { db } = await import("@/lib/platform/db");
  const { getSharedRedis } = await import("@/lib/platform/redis");
  const { importRelease } = await import("@/lib/domain/releases/import-release");
  await db.$executeRawUnsafe(`TRUNCATE "DatasetRelease", "User" CASCADE`);
  await getSharedRedis().flushdb();
  const timings: Timing[] = [];
  for (let run = 0; run < runs; run += 1) {
    const dir = path.join(scratch, `release-${run + 1}`);
    const release = synthesizeRelease({ seed: 42 + run, size: "full" });
    await writeRelease(dir, release);
    const started = performance.now();
    const result = await importRelease({ dir, activate: true, queueBaselines: true });
    const seconds = (performance.now() - started) / 1000;
    const testBaselines = result.baselines.filter((baseline) => baseline.split === "test").length;
    const label = `release ${run + 1} (${result.version}, ${result.stats.splits.test.samples} test samples)`;
    console.log(`${label}: imported with ${result.baselines.length} baselines queued (${testBaselines} on test) in ${formatDecimal(seconds, 2)} s`);
    timings.push({ label, seconds });
  }
  return timings;
}

async function main(): Promise<void> {
  const command = parseCommandLine({ name: "npm run bench:import", usage: USAGE, options: { runs: { type: "string" }, consecutive: { type: "boolean" } } });
  const args = { runs: integerOption(command, "runs", command.values.runs, { min: 1, fallback: 3 }), consecutive: command.values.consecutive === true };
  const scratch = await pointAtBenchServices(args.consecutive);
  try {
    const timings = args.consecutive ? await timeConsecutiveImports(scratch, args.runs) : await timeRepeatedImport(scratch, args.runs);
    const seconds = timings.map((timing) => timing.seconds);
    const what = args.consecutive
      ? "consecutive full-size releases, each with its baselines queued (dataset:import)"
      : "full-size import (read + validate + leakage + insert, one transaction)";
    console.log("| what | runs | median (s) | min (s) | max (s) | RSS at the end (MiB) |");
    console.log("| --- | --- | --- | --- | --- | --- |");
    console.log(
      `| ${what} | ${args.runs} | ${formatDecimal(median(seconds), 2)} | ${formatDecimal(Math.min(...seconds), 2)} | ${formatDecimal(Math.max(...seconds), 2)} | ${formatDecimal((process.memoryUsage().rss / 1024 / 1024), 0)} |`,
    );
  } finally {
    const { closeConnections } = await import("@/lib/web/server/close-connections");
    await closeConnections();
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
