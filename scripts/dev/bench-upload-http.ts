/**
 * npm run bench:upload-http [-- --runs 12 --poll-ms 20 --concurrency 1]
 *
 * Upload to scored through the HTTP API, as a participant's client sees it: on
 * the full-size synthetic release (test split 4,633 samples, KB 12,337, with
 * its baselines scored), `runs` closed-track test files with 100-QID rankings
 * (5.6 MB, each a different file: the platform refuses an account's identical
 * re-upload) are POSTed to /api/submissions of the production build
 * (scripts/server/web-server.mjs) with an API token, one after the other, and
 * GET /api/submissions/ID is polled every `poll-ms` until SCORED. One scoring
 * worker runs. The clock starts before the client's first byte. Phases, from
 * the client's clock and the submission's own timestamps (startedAt the
 * worker's SCORING, finishedAt the SCORED commit; one machine, one clock):
 *   upload (staging + pre-flight + row + file store + job) = POST answered,
 *   queue wait = startedAt - POST answered (negative when the worker started
 *   before the answer reached the client), scoring + store = finishedAt -
 *   startedAt, notify = the poll that saw SCORED - finishedAt.
 * Prints p50 / p90 of each. Needs a prior `next build`. Uses its own local
 * database (irc_bench_upload_http), Redis database 9 and a temporary file
 * store; only talks to 127.0.0.1; asserts nothing.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { rm } from "node:fs/promises";
import { loadavg } from "node:os";
import { integerOption, parseCommandLine } from "../command-line";
import { freePort } from "@/testing/free-port";
import { formatDecimal } from "@/lib/core/format/numbers";
import { isolateBenchServices, percentile, resetWithSyntheticRelease, sleep } from "./bench-support";

function startProcess(args: string[], env: NodeJS.ProcessEnv, ready: string | null): Promise<ChildProcess> {
  const child = spawn(args[0]!, args.slice(1), { env, stdio: ["ignore", "pipe", "inherit"], detached: true });
  return new Promise((resolve, reject) => {
    if (ready === null) return resolve(child);
    const timer = setTimeout(() => reject(new Error(`${args.join(" ")} did not start within 120 s`)), 120_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes(ready)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}`)));
  });
}

function stopProcess(child: ChildProcess): void {
  if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGKILL");
}

async function waitForServer(base: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${base}/api/health`).catch(() => null);
    if (response) return;
    await sleep(500);
  }
  throw new Error("the web server did not answer within 120 s");
}

type Run = { total: number; upload: number; queueWait: number; scoring: number; notify: number };

// eslint-disable-next-line max-lines-per-function -- a benchmark's script, read top to bottom
async function main(): Promise<void> {
  const command = parseCommandLine({
    name: "npm run bench:upload-http",
    usage: "Usage: npm run bench:upload-http [-- --runs 12 --poll-ms 20 --concurrency 1]\nTimes upload -> SCORED through the HTTP API of the production build (needs a prior next build).",
    options: { runs: { type: "string" }, "poll-ms": { type: "string" }, concurrency: { type: "string" } },
  });
  const runs = integerOption(command, "runs", command.values.runs, { min: 1, fallback: 12 });
  const pollMs = integerOption(command, "poll-ms", command.values["poll-ms"], { min: 1, fallback: 20 });
  const concurrency = String(integerOption(command, "concurrency", command.values.concurrency, { min: 1, max: 16, fallback: 1 }));
  const { store } = await isolateBenchServices("upload-http", 9, {
    NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET || "bench-upload-secret-bench-upload-secret",
    // Every run is a test upload of the same account: the daily and total quotas would stop it at 5.
    TEST_QUOTA_PER_DAY: "10000",
    TEST_QUOTA_TOTAL: "10000",
    WORKER_CONCURRENCY: concurrency,
  });

  const { db } = await import("@/lib/platform/db");
  const { getSharedRedis } = await import("@/lib/platform/redis");
  const { synthesizePredictions } = await import("@/testing/synthetic/synth-predictions");
  const { runBaselines } = await import("@/lib/domain/scoring/run-baselines");
  const { generateApiToken } = await import("@/lib/core/accounts/token-format");

  const { release, imported } = await resetWithSyntheticRelease(store);
  const files = Array.from({ length: runs + 1 }, (_, run) =>
    Buffer.from(`${synthesizePredictions({ samples: release.samples.test, entities: release.entities, track: "closed", accuracy: 0.35, seed: 7 + run, rankingLength: 100 }).join("\n")}\n`),
  );
  const user = await db.user.create({ data: { email: "bench-http@irc-bench.invalid", displayName: "Bench", approvedAt: new Date() } });
  const token = generateApiToken();
  await db.apiToken.create({ data: { id: `benchtok${createHash("sha256").update(user.id).digest("hex").slice(0, 16)}`, userId: user.id, name: "bench", tokenHash: token.tokenHash, prefix: token.prefix } });

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production" as const, PORT: String(port), PUBLIC_URL: base };
  const children: ChildProcess[] = [];
  try {
    children.push(await startProcess(["npx", "tsx", "--conditions=react-server", "workers/scoring-worker.ts"], env, "ready: queue"));
    children.push(await startProcess(["node", "scripts/server/web-server.mjs", "--port", String(port), "--hostname", "127.0.0.1"], { ...env, LOG_LEVEL: "warn" }, null));
    await waitForServer(base);
    const baselineRuns = await runBaselines(imported.releaseId);
    for (;;) {
      const waiting = await db.submission.count({ where: { id: { in: baselineRuns.map((run) => run.submissionId) }, status: { notIn: ["SCORED", "FAILED"] } } });
      if (waiting === 0) break;
      await sleep(200);
    }

    const headers = { authorization: `Bearer ${token.token}` };
    const measured: Run[] = [];
    for (let run = 0; run < runs + 1; run += 1) {
      const form = new FormData();
      form.append("file", new Blob([files[run]!]), "test-closed.jsonl");
      const started = performance.now();
      const startedAt = Date.now();
      const response = await fetch(`${base}/api/submissions`, { method: "POST", headers, body: form });
      const upload = performance.now() - started;
      const created = (await response.json()) as { id?: string; status?: string };
      if (response.status !== 201 || created.id === undefined) throw new Error(`upload ${run}: ${response.status} ${JSON.stringify(created)}`);
      let view: { status: string; startedAt: string | null; finishedAt: string | null };
      for (;;) {
        const polled = await fetch(`${base}/api/submissions/${created.id}`, { headers });
        view = (await polled.json()) as typeof view;
        if (view.status === "SCORED" || view.status === "FAILED") break;
        await sleep(pollMs);
      }
      const total = performance.now() - started;
      if (view.status !== "SCORED") throw new Error(`upload ${run} ended ${view.status}`);
      const answeredAt = startedAt + upload;
      const scoringStarted = view.startedAt === null ? answeredAt : Date.parse(view.startedAt);
      const finished = view.finishedAt === null ? answeredAt : Date.parse(view.finishedAt);
      const seen = startedAt + total;
      // Run 0 warms the worker's gold and the server's routes.
      if (run > 0) measured.push({ total, upload, queueWait: scoringStarted - answeredAt, scoring: finished - scoringStarted, notify: seen - finished });
      process.stderr.write(`  run ${run}: ${formatDecimal(total, 0)} ms\n`);
    }

    const row = (name: string, pick: (run: Run) => number) =>
      console.log(`| ${name} | ${formatDecimal(percentile(measured.map(pick), 0.5), 0)} | ${formatDecimal(percentile(measured.map(pick), 0.9), 0)} |`);
    console.log(
      `\nupload -> SCORED through the HTTP API (production build, API token, status polled every ${pollMs} ms), full-size closed-track test file (4,633 samples, 100-QID rankings, ${formatDecimal(files[1]!.length / 1024 / 1024, 1)} MiB), one worker (WORKER_CONCURRENCY=${concurrency}), ${runs} runs after a warm-up, 1-min load average ${formatDecimal(loadavg()[0] ?? 0, 1)}:\n`,
    );
    console.log("| phase | p50 (ms) | p90 (ms) |");
    console.log("| --- | ---: | ---: |");
    row("**first byte to SCORED seen** (target p50 < 1,000)", (run) => run.total);
    row("upload: staging + pre-flight + row + file store + job (POST answered)", (run) => run.upload);
    row("queue wait (POST answered to SCORING)", (run) => run.queueWait);
    row("scoring + store (SCORING to SCORED commit)", (run) => run.scoring);
    row("notify (SCORED commit to the poll that saw it)", (run) => run.notify);
  } finally {
    children.forEach(stopProcess);
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
