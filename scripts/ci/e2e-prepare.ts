/**
 * Builds the browser tests' template database once per run (docs/testing.md): a fresh database
 * beside the test database (`irc_bench_e2e_template_test`), migrated, with the bundled demo release
 * imported and its baselines scored by a real scoring worker. Each Playwright worker then starts
 * from a copy of it (e2e/fixtures/worker-server.ts: `CREATE DATABASE ... TEMPLATE`, seconds).
 * Refuses anything but a local database whose name ends in "_test" and a Redis db other than 0.
 */
import { execFileSync, spawn } from "node:child_process";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { runBaselines } from "@/lib/domain/scoring/run-baselines";
import { importRelease } from "@/lib/domain/releases/import-release";
import { runMain } from "@/lib/web/server/close-connections";
import { assertTestDatabase, assertTestRedis } from "@/testing/local-database";
import { e2eBaseServices, e2eTemplateServices } from "@/testing/e2e-workers";
import { recreateTestDatabase } from "@/testing/test-databases";
import { e2eProductionEnv } from "@/e2e/fixtures/server-env";

const DEMO_RELEASE_DIR = "data/demo-release";
const SCORING_TIMEOUT_MS = 300_000;
const POLL_MS = 200;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function baselinesSettled(): Promise<boolean> {
  const pending = await db.submission.count({ where: { isBaseline: true, status: { not: "SCORED" } } });
  if (pending > 0) return false;
  const counts = await getScoringQueue().getJobCounts("waiting", "active", "delayed", "prioritized", "waiting-children");
  return Object.values(counts).every((count) => count === 0);
}

/** Scores the queued baselines with a real scoring worker (the one the browser tests run), then stops it. */
async function scoreWithWorker(): Promise<void> {
  const worker = spawn("npx", ["tsx", "--conditions=react-server", "workers/scoring-worker.ts"], {
    env: { ...e2eProductionEnv(), LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  let exited = false;
  const exit = new Promise<void>((resolve) => worker.once("exit", () => ((exited = true), resolve())));
  try {
    const deadline = Date.now() + SCORING_TIMEOUT_MS;
    while (!(await baselinesSettled())) {
      if (exited) throw new Error("the scoring worker exited before the baselines were scored");
      if (Date.now() > deadline) throw new Error(`the baselines were not scored within ${SCORING_TIMEOUT_MS} ms`);
      await pause(POLL_MS);
    }
  } finally {
    if (!exited && worker.pid !== undefined) process.kill(-worker.pid, "SIGTERM");
    await exit;
  }
  const failed = await db.submission.count({ where: { isBaseline: true, status: { not: "SCORED" } } });
  if (failed > 0) throw new Error(`${failed} baseline(s) of the template were not scored`);
}

async function main(): Promise<void> {
  const template = e2eTemplateServices(e2eBaseServices());
  assertTestDatabase(template.databaseUrl, "the browser-test template");
  assertTestRedis(template.redisUrl);
  // Everything below (lib/platform/env.ts, the Prisma client, Redis) reads the template's services.
  process.env.DATABASE_URL = template.databaseUrl;
  process.env.REDIS_URL = template.redisUrl;

  const started = Date.now();
  await recreateTestDatabase(template.databaseUrl);
  execFileSync(process.execPath, ["scripts/ops/prisma-migrate.mjs", "deploy"], { env: process.env, stdio: ["ignore", "ignore", "inherit"] });
  await getSharedRedis().flushdb();
  const imported = await importRelease({ dir: DEMO_RELEASE_DIR, activate: true });
  const baselines = await runBaselines(imported.releaseId);
  await scoreWithWorker();
  // Nothing of the template's queue is kept: each worker's Redis database starts empty.
  await getSharedRedis().flushdb();
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  console.log(`e2e: template ${new URL(template.databaseUrl).pathname.slice(1)}: ${imported.name} ${imported.version} with ${baselines.length} baselines scored (${seconds} s)`);
}

runMain(main);
