/**
 * What the pipeline benchmarks share: their own database and Redis logical
 * database on the local services (never the development data), worker
 * processes as `npm run worker` starts them, and the percentile they report.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { requireLocalUrl } from "@/testing/local-database";

/**
 * The slice secret of every benchmark's own database (protocol §12): their
 * workers and servers run in production mode, which refuses the public
 * development value, and the process that seeds must key the slices as they do.
 */
export const BENCH_SLICE_SECRET = "irc-bench-benchmarks-slice-secret-0123456789";
/** The public log's signing key of the benchmarks' production servers (production refuses the development key). */
export const BENCH_LOG_SIGNING_KEY = Buffer.alloc(32, 11).toString("base64");

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The q-quantile of `values` (0 ≤ q ≤ 1), linear between the two nearest ranks. */
export function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

/**
 * Points this process at the benchmark's own database `irc_bench_NAME` and
 * Redis database `redisDb` on the local services of DATABASE_URL and
 * REDIS_URL, with a fresh file store, BENCH_SLICE_SECRET and `env` on top,
 * and migrates it.
 */
export async function isolateBenchServices(name: string, redisDb: number, env: Record<string, string> = {}): Promise<{ store: string; dbUrl: URL; redisUrl: URL }> {
  const dbUrl = new URL(requireLocalUrl("DATABASE_URL", `bench:${name}`));
  const redisUrl = new URL(requireLocalUrl("REDIS_URL", `bench:${name}`));
  dbUrl.pathname = `/irc_bench_${name.replace(/-/g, "_")}`;
  redisUrl.pathname = `/${redisDb}`;
  const store = await mkdtemp(path.join(os.tmpdir(), `irc-bench-${name}-`));
  Object.assign(process.env, { DATABASE_URL: dbUrl.toString(), REDIS_URL: redisUrl.toString(), IRC_DATA_DIR: store, IRC_SLICE_SECRET: BENCH_SLICE_SECRET, ...env });
  execFileSync("node", ["scripts/ops/ensure-database.mjs"], { stdio: "inherit" });
  execFileSync("node", ["scripts/ops/prisma-migrate.mjs", "deploy"], { stdio: "ignore" });
  return { store, dbUrl, redisUrl };
}

/**
 * Empties the benchmark's database and Redis database, then writes the
 * full-size synthetic release (seed 42) under `store` and imports it as the
 * active release. Call after isolateBenchServices: the platform modules are
 * loaded here, once the environment points at the benchmark's services.
 */
export async function resetWithSyntheticRelease(store: string) {
  const { db } = await import("@/lib/platform/db");
  const { getSharedRedis } = await import("@/lib/platform/redis");
  const { synthesizeRelease, writeRelease } = await import("@/testing/synthetic/synth-release");
  const { importRelease } = await import("@/lib/domain/releases/import-release");
  await db.$executeRawUnsafe(`TRUNCATE "DatasetRelease", "User" CASCADE`);
  await getSharedRedis().flushdb();
  const releaseDir = path.join(store, "release");
  const release = synthesizeRelease({ seed: 42, size: "full" });
  await writeRelease(releaseDir, release);
  const imported = await importRelease({ dir: releaseDir, activate: true });
  return { release, imported };
}

/** A scoring worker in its own process group, resolved once it logs that it is ready. */
export function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn("npx", ["tsx", "--conditions=react-server", "workers/scoring-worker.ts"], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("worker did not start within 60 s")), 60_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready: queue")) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on("exit", (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

export function stopWorker(child: ChildProcess): void {
  if (child.pid) process.kill(-child.pid, "SIGKILL");
}
