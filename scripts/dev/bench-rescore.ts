/**
 * npm run bench:rescore [-- --entries 1000 --workers 2 --concurrency 1 --reuse]
 *
 * Re-scoring a whole leaderboard after a change of the platform's scoring
 * version, end to end: on the full-size synthetic release (test split 4,633
 * samples, KB 12,337), `entries` published test entries plus the four
 * synthetic baselines, scored and compared by the seeder (the worker's own
 * writers, with clean probe flags of the current version). Their stored
 * scores are then given the previous platform version, which is what a move
 * of PLATFORM_SCORING_VERSION does to every stored row; `workers` scoring
 * worker processes start (not timed), and the clock runs from the start of
 * the rescore command (`scripts/ops/rescore.ts`, its own process) until
 *   - every score is current (this version, this gold) and every entry SCORED,
 *   - every entry has its comparisons with the baselines, and
 *   - the leaderboard (both tracks, every public entry) answers with the new
 *     scores: its stamp moved and no row is stale.
 * Prints the phases, the wall time and entries per second. `--reuse` keeps a
 * database seeded by an earlier run with as many entries (seeding takes
 * minutes). Uses its own local database (irc_bench_rescore), Redis database 8
 * and a temporary file store; asserts nothing.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import { integerOption, parseCommandLine } from "../command-line";
import { formatDecimal, formatCount } from "@/lib/core/format/numbers";
import { isolateBenchServices, resetWithSyntheticRelease, sleep, startWorker, stopWorker } from "./bench-support";

const PREVIOUS_PLATFORM_VERSION = "1.1.0";

/** CPU seconds (user + system) used so far by the processes of a process group, from /proc (Linux; 0 elsewhere). */
function cpuSecondsOfGroup(pgid: number): number {
  let ticks = 0;
  let pids: string[] = [];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    try {
      // Fields after the parenthesised command: state ppid pgrp ... utime (14th field) stime (15th).
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ");
      if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks / 100;
}

function runRescoreCommand(env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn("npx", ["tsx", "--conditions=react-server", "scripts/ops/rescore.ts"], { env, stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on("exit", (code) => (code === 0 ? resolve(output.trim()) : reject(new Error(`rescore exited with ${code}: ${output}`))));
  });
}

// eslint-disable-next-line max-lines-per-function -- a benchmark's script, read top to bottom
async function main(): Promise<void> {
  const command = parseCommandLine({
    name: "npm run bench:rescore",
    usage: "Usage: npm run bench:rescore [-- --entries 1000 --workers 2 --concurrency 1 --reuse]\nTimes a whole leaderboard's re-score after a platform scoring version change, until the leaderboard is current again.",
    options: { entries: { type: "string" }, workers: { type: "string" }, concurrency: { type: "string" }, reuse: { type: "boolean" } },
  });
  const entries = integerOption(command, "entries", command.values.entries, { min: 1, fallback: 1000 });
  const workerCount = integerOption(command, "workers", command.values.workers, { min: 1, max: 16, fallback: 2 });
  const concurrency = String(integerOption(command, "concurrency", command.values.concurrency, { min: 1, max: 16, fallback: 1 }));
  // The workers run as in production, which wants both secrets; the seeder (this process) and the workers share BENCH_SLICE_SECRET (isolateBenchServices).
  const { store } = await isolateBenchServices("rescore", 8, {
    WORKER_CONCURRENCY: concurrency,
    NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET || "bench-rescore-secret-bench-rescore-secret",
  });

  const { db } = await import("@/lib/platform/db");
  const { getSharedRedis } = await import("@/lib/platform/redis");
  const { seedLeaderboardEntries } = await import("@/testing/leaderboard/seed-leaderboard-entries");
  const { getLeaderboard, findPublicReadStamp } = await import("@/lib/domain/leaderboard/get-leaderboard");
  const { PLATFORM_SCORING_VERSION } = await import("@/lib/core/scoring/score-report");

  const seeded = await db.submission.count({ where: { isBaseline: false, status: "SCORED" } });
  if (!command.values.reuse || seeded !== entries) {
    const { imported } = await resetWithSyntheticRelease(store);
    const started = performance.now();
    await seedLeaderboardEntries({
      releaseId: imported.releaseId,
      entries,
      withBaselines: true,
      withProbeFlags: true,
      seed: 7,
      resamples: 1000,
      onProgress: (done, total) => {
        if (done % 100 === 0 || done === total) process.stderr.write(`\r  seeded ${done}/${total}`);
      },
    });
    process.stderr.write(`\n  seeding took ${formatDecimal((performance.now() - started) / 1000, 1)} s\n`);
  }
  await getSharedRedis().flushdb();
  await db.rescoreEvent.deleteMany({});
  const total = await db.submission.count({ where: { status: "SCORED" } });
  const baselines = await db.submission.count({ where: { isBaseline: true } });
  // What a move of PLATFORM_SCORING_VERSION leaves behind: every stored score carries the previous version.
  await db.$executeRaw`UPDATE "Score" SET "scorerVersion" = ${PREVIOUS_PLATFORM_VERSION}`;
  const staleStamp = await findPublicReadStamp();

  const workerEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production" as const };
  const workers: ChildProcess[] = [];
  try {
    for (let i = 0; i < workerCount; i += 1) workers.push(await startWorker(workerEnv));
    const phases: { phase: string; at: number }[] = [];
    const workerCpu = () => workers.reduce((sum, worker) => sum + cpuSecondsOfGroup(worker.pid ?? -1), 0);
    const cpuBefore = workerCpu();
    const loadBefore = os.loadavg()[0] ?? 0;
    const started = performance.now();
    const mark = (phase: string) => {
      phases.push({ phase, at: performance.now() - started });
      process.stderr.write(`  ${phase}: ${formatDecimal((performance.now() - started) / 1000, 1)} s\n`);
    };

    const rescoring = runRescoreCommand(workerEnv).then((output) => {
      mark("rescore command exited (all queued)");
      return output;
    });
    for (;;) {
      const [current, scored] = await Promise.all([
        db.score.count({ where: { scorerVersion: PLATFORM_SCORING_VERSION } }),
        db.submission.count({ where: { status: "SCORED" } }),
      ]);
      if (current === total && scored === total) break;
      await sleep(50);
    }
    mark("every score current and SCORED");
    const cpuSeconds = workerCpu() - cpuBefore;
    const rescoreOutput = await rescoring;
    const uncompared = await db.submission.count({ where: { isBaseline: false, comparisonsAsEntry: { none: {} } } });
    let leaderboardRows = 0;
    for (;;) {
      const stamp = await findPublicReadStamp();
      if (stamp?.stamp !== staleStamp?.stamp) {
        const views = await Promise.all((["open", "closed"] as const).map((track) => getLeaderboard({ track, scope: "all" })));
        const rows = views.flatMap((snapshot) => snapshot?.view.rows ?? []).filter((row) => row.kind !== "reported");
        if (rows.length === total && rows.every((row) => !row.isStale)) {
          leaderboardRows = rows.length;
          break;
        }
      }
      await sleep(50);
    }
    mark("leaderboard answers with the new scores");
    const seconds = phases[phases.length - 1]!.at / 1000;
    const events = await db.rescoreEvent.count();

    console.log(`\nre-scoring ${formatCount(total - baselines)} entries and ${formatCount(baselines)} baselines after a platform scoring version change (${PREVIOUS_PLATFORM_VERSION} -> ${PLATFORM_SCORING_VERSION}), full-size test split, ${workerCount} worker process(es), WORKER_CONCURRENCY=${concurrency}:\n`);
    console.log(`rescore command: ${rescoreOutput.replaceAll("\n", " ")}\n`);
    console.log("| phase | seconds from start |");
    console.log("| --- | ---: |");
    for (const { phase, at } of phases) console.log(`| ${phase} | ${formatDecimal(at / 1000, 1)} |`);
    console.log(`\nwall time ${formatDecimal(seconds, 1)} s (target < 120 s), ${formatDecimal(total / seconds, 1)} submissions / s, ${formatDecimal((seconds * 1000) / total, 0)} ms per submission`);
    console.log(
      `worker CPU (user + system, both processes): ${formatDecimal(cpuSeconds, 1)} s, ${formatDecimal((cpuSeconds * 1000) / total, 0)} ms per submission; ` +
        `1-min load average ${formatDecimal(loadBefore, 1)} at the start, ${formatDecimal(os.loadavg()[0] ?? 0, 1)} at the end (${os.cpus().length} CPUs)`,
    );
    console.log(`leaderboard rows (both tracks, every public entry): ${formatCount(leaderboardRows)}; entries without comparisons: ${formatCount(uncompared)}; rescore events recorded: ${formatCount(events)}`);
  } finally {
    workers.forEach(stopWorker);
    await getSharedRedis().quit();
    await db.$disconnect();
    await rm(store, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
