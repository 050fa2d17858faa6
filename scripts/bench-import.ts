/**
 * npm run bench:import [-- --runs 3]
 *
 * Times the import of the full-size synthetic release (12,337 entities, 25,136
 * samples) into an emptied benchmark database (DATABASE_URL's server, database
 * irc_bench_bench). Prints the median and the spread as a markdown table.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { synthesizeRelease, writeRelease } from "@/testing/synthetic/synth-release";
import { requireLocalUrl } from "@/testing/local-database";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "3" } } });
  const runs = Math.max(1, Number(values.runs));
  const base = new URL(requireLocalUrl("DATABASE_URL", "bench:import"));
  base.pathname = "/irc_bench_bench";
  process.env.DATABASE_URL = base.toString();
  const { execFileSync } = await import("node:child_process");
  execFileSync("node", ["scripts/ensure-database.mjs"], { stdio: "inherit" });
  execFileSync("npx", ["prisma", "migrate", "deploy"], { stdio: "ignore" });

  const dir = await mkdtemp(path.join(os.tmpdir(), "irc-bench-import-"));
  const release = synthesizeRelease({ seed: 42, size: "full" });
  await writeRelease(dir, release);
  const { db } = await import("@/lib/db");
  const { importRelease } = await import("@/lib/releases/import-release");
  const timings: number[] = [];
  let peakRss = 0;
  for (let run = 0; run < runs; run += 1) {
    await db.$executeRawUnsafe(`TRUNCATE "DatasetRelease" CASCADE`);
    const started = performance.now();
    const result = await importRelease({ dir, activate: true });
    timings.push((performance.now() - started) / 1000);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    if (run === 0) console.error(`imported ${result.stats.kbEntities} entities, ${result.stats.splits.train.samples + result.stats.splits.dev.samples + result.stats.splits.test.samples} samples`);
  }
  await db.$disconnect();
  await rm(dir, { recursive: true, force: true });
  console.log("| phase | runs | median (s) | min (s) | max (s) | peak RSS (MiB) |");
  console.log("| --- | --- | --- | --- | --- | --- |");
  console.log(
    `| full-size import (read + validate + leakage + insert, one transaction) | ${runs} | ${median(timings).toFixed(2)} | ${Math.min(...timings).toFixed(2)} | ${Math.max(...timings).toFixed(2)} | ${(peakRss / 1024 / 1024).toFixed(0)} |`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
