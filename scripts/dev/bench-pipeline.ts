/**
 * npm run bench:pipeline [-- --runs 20 --drain 100]
 *
 * On the full-size synthetic release (test split: 4,633 samples, KB 12,337):
 *   1. upload -> scored for a closed-track test file with 100-QID rankings,
 *      `runs` times with one worker running: p50 and p95. "Upload" is the
 *      server-side path of POST /api/submissions without HTTP: streaming the
 *      file to the store, pre-flight validation, the database row and the job.
 *   2. the time to drain `drain` queued submissions with 1 and with 2 worker
 *      processes (WORKER_CONCURRENCY=1 each).
 * Uses its own local database (irc_bench_pipeline), Redis database 7 and a
 * temporary file store. Prints markdown tables; asserts nothing.
 */
import { createReadStream } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { integerOption, parseCommandLine } from "../command-line";
import { formatDecimal } from "@/lib/core/format/numbers";
import { isolateBenchServices, percentile, resetWithSyntheticRelease, sleep, startWorker, stopWorker } from "./bench-support";

// eslint-disable-next-line max-lines-per-function -- a benchmark's script, read top to bottom
async function main(): Promise<void> {
  const command = parseCommandLine({
    name: "npm run bench:pipeline",
    usage: "Usage: npm run bench:pipeline [-- --runs 20 --drain 100]\nTimes upload -> scored on the full-size synthetic release (runs times) and the drain of `drain` queued submissions with 1 and 2 workers.",
    options: { runs: { type: "string" }, drain: { type: "string" } },
  });
  const runs = integerOption(command, "runs", command.values.runs, { min: 1, fallback: 20 });
  const drainCount = integerOption(command, "drain", command.values.drain, { min: 1, fallback: 100 });
  const { store } = await isolateBenchServices("pipeline", 7, {
    WORKER_CONCURRENCY: "1",
  });

  const { db } = await import("@/lib/platform/db");
  const { getSharedRedis } = await import("@/lib/platform/redis");
  const { synthesizePredictions } = await import("@/testing/synthetic/synth-predictions");
  const { runBaselines } = await import("@/lib/domain/scoring/run-baselines");
  const { createSubmission } = await import("@/lib/domain/uploads/create-submission");
  const { stageUpload } = await import("@/lib/platform/files/staging");
  const { getScoringQueue } = await import("@/lib/platform/queue/scoring-queue");
  const { getEnv } = await import("@/lib/platform/env");

  const { release, imported } = await resetWithSyntheticRelease(store);
  const predictionsFile = path.join(store, "test-closed.jsonl");
  const lines = synthesizePredictions({ samples: release.samples.test, entities: release.entities, track: "closed", accuracy: 0.35, seed: 7, rankingLength: 100 });
  await writeFile(predictionsFile, `${lines.join("\n")}\n`);
  const user = await db.user.create({ data: { email: "bench@irc-bench.invalid", displayName: "Bench" } });

  const submit = async () => {
    const staged = await stageUpload(createReadStream(predictionsFile), getEnv().UPLOAD_MAX_BYTES);
    return createSubmission({ userId: user.id, staged, originalName: "test-closed.jsonl", isQuotaExempt: true });
  };
  const waitScored = async (ids: string[]) => {
    for (;;) {
      const done = await db.submission.count({ where: { id: { in: ids }, status: { in: ["SCORED", "FAILED"] } } });
      if (done === ids.length) return;
      await sleep(10);
    }
  };

  const workerEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production" as const };
  let workers = [await startWorker(workerEnv)];
  try {
    // Baselines first, so every measured job also runs its McNemar comparisons against them.
    const baselineRuns = await runBaselines(imported.releaseId);
    await waitScored(baselineRuns.map((run) => run.submissionId));

    const latencies: number[] = [];
    for (let run = 0; run < runs + 1; run += 1) {
      const started = performance.now();
      const submission = await submit();
      await waitScored([submission.id]);
      if (run > 0) latencies.push(performance.now() - started); // run 0 warms the worker's gold cache
    }

    const drains: { workers: number; seconds: number }[] = [];
    for (const workerCount of [1, 2]) {
      workers.forEach(stopWorker);
      await getScoringQueue().pause();
      workers = [];
      for (let i = 0; i < workerCount; i += 1) workers.push(await startWorker(workerEnv));
      // Each worker loads the gold once; warm them outside the measured drain.
      const warm = [];
      for (let i = 0; i < workerCount * 2; i += 1) warm.push((await submit()).id);
      await getScoringQueue().resume();
      await waitScored(warm);
      await getScoringQueue().pause();
      const ids: string[] = [];
      for (let i = 0; i < drainCount; i += 1) ids.push((await submit()).id);
      const started = performance.now();
      await getScoringQueue().resume();
      await waitScored(ids);
      drains.push({ workers: workerCount, seconds: (performance.now() - started) / 1000 });
    }

    console.log(`\nupload -> scored, full-size closed-track test file (4,633 samples, 100-QID rankings), one worker, ${runs} runs:\n`);
    console.log("| p50 (ms) | p95 (ms) | min (ms) | max (ms) |");
    console.log("| --- | --- | --- | --- |");
    console.log(`| ${formatDecimal(percentile(latencies, 0.5), 0)} | ${formatDecimal(percentile(latencies, 0.95), 0)} | ${formatDecimal(Math.min(...latencies), 0)} | ${formatDecimal(Math.max(...latencies), 0)} |`);
    console.log(`\ndraining ${drainCount} queued submissions (worker processes with WORKER_CONCURRENCY=1):\n`);
    console.log("| workers | seconds | submissions / s |");
    console.log("| --- | --- | --- |");
    for (const drain of drains) console.log(`| ${drain.workers} | ${formatDecimal(drain.seconds, 1)} | ${formatDecimal((drainCount / drain.seconds), 1)} |`);
    console.log(`\nratio 1 worker / 2 workers: ${formatDecimal((drains[0]!.seconds / drains[1]!.seconds), 2)}`);
  } finally {
    workers.forEach(stopWorker);
    await getScoringQueue().close();
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
