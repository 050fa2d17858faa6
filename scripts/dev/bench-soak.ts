/**
 * npm run bench:soak -- [options]
 *
 * Read latency of the public leaderboard API with and without uploads
 * running. Writes a synthetic release, imports it with published entries into
 * a separate local database (irc_bench_soak_bench), starts the production
 * build (scripts/server/web-server.mjs) and one scoring worker against it and a Redis
 * logical database of its own (2), then loads GET /api/leaderboard with
 * autocannon twice: alone, and while uploaders POST dev prediction files in a
 * loop. Prints p50/p99 of both phases. A benchmark, not a test: it asserts
 * nothing. Needs a prior `next build` (or --build). Only ever talks to 127.0.0.1.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { choiceOption, integerOption, parseCommandLine } from "../command-line";
import autocannon from "autocannon";
import pg from "pg";
import { assertLocalDatabaseUrl, isLocalHost, withDatabaseName } from "@/testing/local-database";
import { generateApiToken } from "@/lib/core/accounts/token-format";
import { freePort } from "@/testing/free-port";
import { formatDecimal } from "@/lib/core/format/numbers";
import { BENCH_LOG_SIGNING_KEY, BENCH_SLICE_SECRET } from "./bench-support";

const USAGE = `Usage: npm run bench:soak -- [options]

  --database-url URL   bench database (default: DATABASE_URL's server, database irc_bench_soak_bench); must be local
  --size full|small    synthetic release (default full: 25,136 samples; its dev split is the upload)
  --track open|closed  track of the uploaded file (default closed: 100-QID rankings, the heavier pre-flight)
  --entries N          published entries on the leaderboard (default 100)
  --connections N      concurrent readers (default 20)
  --duration S         seconds per phase (default 20)
  --uploaders N        concurrent uploaders in the second phase (default 2)
  --build              run next build first (default: use the existing build in NEXT_DIST_DIR or .next)
  --help               show this help`;

const ROOT = path.resolve(__dirname, "../..");
const DIST_DIR = process.env.NEXT_DIST_DIR ?? ".next";
const READ_PATH = "/api/leaderboard?track=open";
const BENCH_REDIS_DB = 2;

type Phase = { name: string; reads: number; p50: number; p99: number; max: number; errors: number; uploads: Map<number, number> };

function run(command: string, args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(command, args, { cwd: ROOT, env, stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.status ?? result.signal}`);
}


function benchRedisUrl(url: string | undefined): string {
  if (!url) throw new Error("REDIS_URL is not set (source .data/services.env)");
  const parsed = new URL(url);
  if (!isLocalHost(parsed.hostname)) throw new Error(`refusing a non-local Redis (${parsed.hostname})`);
  parsed.pathname = `/${BENCH_REDIS_DB}`;
  return parsed.toString();
}

function startProcess(args: string[], env: NodeJS.ProcessEnv, label: string): ChildProcess {
  // Its own process group, so it and its children stop together.
  const child = spawn(args[0] ?? "node", args.slice(1), { cwd: ROOT, env, stdio: ["ignore", "ignore", "inherit"], detached: true });
  child.on("exit", (code, signal) => {
    if (code !== 0 && signal !== "SIGTERM") console.error(`[soak] ${label} exited early (code ${code ?? "-"}, signal ${signal ?? "-"})`);
  });
  return child;
}

function stopProcess(child: ChildProcess): void {
  if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
}

async function waitForServer(base: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the web server exited with ${server.exitCode}`);
    const response = await fetch(`${base}${READ_PATH}`).catch(() => null);
    if (response?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("the web server did not answer within 120 s");
}

/** One participant per uploader, each with an API token stored as lib/domain/accounts stores them (SHA-256 only). */
async function createUploaders(databaseUrl: string, count: number): Promise<string[]> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    await pool.query(`DELETE FROM "User" WHERE "email" LIKE '%@soak-bench.invalid'`);
    const tokens: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const userId = `csoak${randomBytes(10).toString("hex")}`;
      await pool.query(`INSERT INTO "User" ("id", "email", "displayName", "role") VALUES ($1, $2, $3, 'PARTICIPANT')`, [
        userId,
        `uploader-${index}@soak-bench.invalid`,
        `Soak uploader ${index}`,
      ]);
      const generated = generateApiToken();
      const tokenId = `csoaktok${createHash("sha256").update(userId).digest("hex").slice(0, 16)}`;
      await pool.query(`INSERT INTO "ApiToken" ("id", "userId", "name", "tokenHash", "prefix") VALUES ($1, $2, 'soak', $3, $4)`, [
        tokenId,
        userId,
        generated.tokenHash,
        generated.prefix,
      ]);
      tokens.push(generated.token);
    }
    return tokens;
  } finally {
    await pool.end();
  }
}

/** Uploads the file again and again until `until`; counts answers by status (0: the request failed). */
async function uploadLoop(base: string, token: string, file: Buffer, until: number, statuses: Map<number, number>): Promise<void> {
  while (Date.now() < until) {
    const form = new FormData();
    form.set("file", new File([new Uint8Array(file)], "dev-predictions.jsonl", { type: "application/x-ndjson" }));
    const response = await fetch(`${base}/api/submissions`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form }).catch(() => null);
    const status = response?.status ?? 0;
    await response?.arrayBuffer().catch(() => undefined);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (status === 429 || status === 503) await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function measure(name: string, base: string, connections: number, duration: number, uploads?: { tokens: string[]; file: Buffer }): Promise<Phase> {
  console.error(`[soak] ${name}: ${connections} readers for ${duration} s${uploads ? ` with ${uploads.tokens.length} uploader(s)` : ""}`);
  const statuses = new Map<number, number>();
  const until = Date.now() + duration * 1000;
  const uploading = uploads ? Promise.all(uploads.tokens.map((token) => uploadLoop(base, token, uploads.file, until, statuses))) : Promise.resolve([]);
  const result = await autocannon({ url: `${base}${READ_PATH}`, connections, duration, headers: { "accept-encoding": "gzip" } });
  await uploading;
  return {
    name,
    reads: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts + result.non2xx,
    uploads: statuses,
  };
}

// eslint-disable-next-line max-lines-per-function -- a benchmark's script, read top to bottom
async function main(): Promise<number> {
  const command = parseCommandLine({
    name: "npm run bench:soak",
    usage: USAGE,
    options: {
      "database-url": { type: "string" },
      size: { type: "string" },
      track: { type: "string" },
      entries: { type: "string" },
      connections: { type: "string" },
      duration: { type: "string" },
      uploaders: { type: "string" },
      build: { type: "boolean" },
    },
  });
  const { values } = command;
  const fallback = process.env.DATABASE_URL ? withDatabaseName(process.env.DATABASE_URL, "irc_bench_soak_bench") : undefined;
  let databaseUrl: string;
  let redisUrl: string;
  try {
    databaseUrl = assertLocalDatabaseUrl(values["database-url"] ?? fallback);
    redisUrl = benchRedisUrl(process.env.REDIS_URL);
  } catch (error) {
    return command.fail(error instanceof Error ? error.message : String(error));
  }
  const settings = {
    size: choiceOption(command, "size", values.size, ["full", "small"], "full"),
    track: choiceOption(command, "track", values.track, ["open", "closed"], "closed"),
    entries: integerOption(command, "entries", values.entries, { min: 1, fallback: 100 }),
    connections: integerOption(command, "connections", values.connections, { min: 1, fallback: 20 }),
    duration: integerOption(command, "duration", values.duration, { min: 1, fallback: 20 }),
    uploaders: integerOption(command, "uploaders", values.uploaders, { min: 1, fallback: 2 }),
    databaseUrl,
    redisUrl,
  };
  if (!values.build && !existsSync(path.join(ROOT, DIST_DIR, "BUILD_ID"))) {
    console.error(`error: no production build in ${DIST_DIR}; run \`npx next build\` first or pass --build`);
    return 2;
  }
  const work = await mkdtemp(path.join(tmpdir(), "irc-soak-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: settings.databaseUrl,
    REDIS_URL: settings.redisUrl,
    IRC_DATA_DIR: path.join(work, "store"),
    // The seeder, the server and the worker key the slices alike (production refuses the development secret).
    IRC_SLICE_SECRET: BENCH_SLICE_SECRET,
    IRC_LOG_SIGNING_KEY: BENCH_LOG_SIGNING_KEY,
    NEXT_TELEMETRY_DISABLED: "1",
    LOG_LEVEL: "warn",
  };
  const children: ChildProcess[] = [];
  const stopAll = () => children.forEach(stopProcess);
  process.once("SIGINT", () => {
    stopAll();
    process.exit(130);
  });
  try {
    const release = path.join(work, "release");
    const predictions = path.join(work, "dev-predictions.jsonl");
    console.error(`[soak] database ${new URL(settings.databaseUrl).pathname.slice(1)}, Redis db ${BENCH_REDIS_DB}; preparing a ${settings.size} release`);
    run("node", ["scripts/ops/ensure-database.mjs"], env);
    run("node", ["scripts/ops/prisma-migrate.mjs", "deploy"], env);
    run("npx", ["tsx", "scripts/dev/dataset-synth.ts", "--out", release, "--size", settings.size], env);
    run("npx", ["tsx", "--conditions=react-server", "scripts/dev/seed-leaderboard.ts", "--reset", "--release-dir", release, "--entries", String(settings.entries)], env);
    run("npx", ["tsx", "scripts/dev/predictions-synth.ts", "--release", release, "--split", "dev", "--track", settings.track, "--accuracy", "0.4", "--out", predictions], env);
    if (values.build) run("npx", ["next", "build"], { ...env, NODE_ENV: "production" });
    const file = await readFile(predictions);
    const tokens = await createUploaders(settings.databaseUrl, settings.uploaders);

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const serverEnv = { ...env, NODE_ENV: "production" as const, PORT: String(port) };
    children.push(startProcess(["node", path.join(ROOT, "scripts", "server", "web-server.mjs"), "--port", String(port), "--hostname", "127.0.0.1"], serverEnv, "the web server"));
    children.push(startProcess(["npx", "tsx", "--conditions=react-server", "workers/scoring-worker.ts"], serverEnv, "the worker"));
    await waitForServer(base, children[0] as ChildProcess);
    // Warm up the cached body, then measure.
    await autocannon({ url: `${base}${READ_PATH}`, connections: 2, duration: 2 });
    const loadBefore = loadavg()[0] ?? 0;
    const quiet = await measure("reads alone", base, settings.connections, settings.duration);
    const loaded = await measure("reads while uploading", base, settings.connections, settings.duration, { tokens, file });
    console.log(
      `\nGET ${READ_PATH} (gzip), ${settings.connections} connections, ${settings.duration} s per phase, autocannon; uploads: ` +
        `${settings.uploaders} uploader(s) in a loop, ${settings.size} release's dev split, ${settings.track} track, ${formatDecimal((file.length / 1024 / 1024), 1)} MiB each; ` +
        `one scoring worker; ${cpus().length} CPUs, 1-min load average ${formatDecimal(loadBefore, 1)} before and ${formatDecimal((loadavg()[0] ?? 0), 1)} after\n`,
    );
    console.log("| phase | reads | p50 (ms) | p99 (ms) | max (ms) | read errors | uploads (status: count) |");
    console.log("| --- | ---: | ---: | ---: | ---: | ---: | --- |");
    for (const phase of [quiet, loaded]) {
      const uploads = [...phase.uploads.entries()].map(([status, count]) => `${status === 0 ? "failed" : status}: ${count}`).join(", ") || "–";
      console.log(`| ${phase.name} | ${phase.reads} | ${phase.p50} | ${phase.p99} | ${phase.max} | ${phase.errors} | ${uploads} |`);
    }
    return 0;
  } finally {
    stopAll();
    await rm(work, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
