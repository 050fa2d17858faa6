/**
 * npm run bench:leaderboard -- [options]
 *
 * Seeds published synthetic entries into a separate local database
 * (irc_bench_leaderboard_bench by default), starts the production build with scripts/server/web-server.mjs
 * on a free port against it, and loads /leaderboard and the JSON API with
 * autocannon. Prints requests/s and latency percentiles as a markdown table.
 * Needs a prior `next build` into NEXT_DIST_DIR or .next (or --build). Only ever talks to 127.0.0.1.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { assertLocalDatabaseUrl, withDatabaseName } from "@/testing/local-database";
import { benchRanks, formatRankBench } from "./bench-ranks";
import { freePort } from "../../testing/free-port";
import { formatDecimal } from "@/lib/format/numbers";

const USAGE = `Usage: npm run bench:leaderboard -- [options]

  --database-url URL   bench database (default: DATABASE_URL's server, database irc_bench_leaderboard_bench); must be local
  --entries N          published entries to seed (default 1000)
  --test-samples N     test samples of the synthetic release (default 1000)
  --connections N      concurrent connections (default 50)
  --duration S         seconds per URL (default 10)
  --warmup S           seconds of load per URL before the measured run, not counted (default 2; 0: none)
  --reuse              keep an already seeded bench database (default: reseed)
  --build              run next build first (default: use the existing .next build)
  --help               show this help`;

const ROOT = path.resolve(__dirname, "../..");
// next.config.ts builds into NEXT_DIST_DIR when it is set (a second checkout or a benchmark beside the main build).
const DIST_DIR = process.env.NEXT_DIST_DIR ?? ".next";
// Browsers and HTTP clients ask for gzip (browsers also for br); one identity row shows the uncompressed cost. Two
// floors come first: a plain Node.js server (the machine's), and a request Next.js routes to a route that answers
// with a 422 before any work (what every cache miss, signed-in read and API error still pays).
const FLOOR = "/api/leaderboard?track=none";
type Encoding = "gzip" | "br" | "identity";
/** Replaced by the first published entry's page once the server answers. */
const ENTRY_PAGE = "/entries/FIRST";
/**
 * A reader with a session cookie (gzip): never served the shared page, so
 * this row is the per-request render cost the cache saves anonymous readers.
 * The cookie is not a valid session (the server renders it as signed out after
 * trying to read it), which costs the same render.
 */
const SIGNED_IN = "gzip, signed in" as const;
type Target = { path: string; encoding: Encoding | typeof SIGNED_IN };
const TARGETS: Target[] = [
  { path: FLOOR, encoding: "identity" },
  { path: "/api/leaderboard?track=open", encoding: "gzip" },
  { path: "/api/leaderboard?track=open", encoding: "br" },
  { path: "/api/leaderboard?track=open", encoding: "identity" },
  { path: "/api/entries", encoding: "gzip" },
  { path: "/api/leaderboard?track=unified", encoding: "gzip" },
  { path: "/api/leaderboard?track=open&limit=1000", encoding: "gzip" },
  { path: "/leaderboard", encoding: "gzip" },
  { path: "/leaderboard", encoding: "br" },
  { path: "/leaderboard?track=closed&sort=system&dir=asc", encoding: "gzip" },
  { path: "/leaderboard/types/person?track=open", encoding: "gzip" },
  { path: "/leaderboard/matrix?track=open", encoding: "gzip" },
  { path: ENTRY_PAGE, encoding: "gzip" },
  { path: "/leaderboard", encoding: SIGNED_IN },
];

function run(command: string, args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(command, args, { cwd: ROOT, env, stdio: "inherit" });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited with ${result.status ?? result.signal}`);
  }
}


async function waitForServer(base: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the web server exited with ${server.exitCode}`);
    try {
      const response = await fetch(`${base}/api/leaderboard?track=open`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("the web server did not answer within 90 s");
}

type Row = { path: string; encoding: Target["encoding"]; bytes: number; rps: number; p50: number; p99: number; errors: number };

/** The machine's floor: a plain Node.js http server that sends one fixed body of about a cached page's size, nothing else. */
const MACHINE_FLOOR = "plain node http, fixed 20 KiB body (machine floor)";
const MACHINE_FLOOR_SERVER = `
const http = require("node:http");
const body = Buffer.alloc(20 * 1024, "irc-bench ");
http.createServer((req, res) => {
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": body.length });
  res.end(body);
}).listen(Number(process.argv[1]), "127.0.0.1", () => console.log("ready"));
`;

type Load = { connections: number; duration: number; warmup: number };

/** A run of `warmup` seconds first (JIT, first reads from Redis), then the measured one. */
async function load(url: string, options: Load, headers: Record<string, string> = {}): Promise<autocannon.Result> {
  if (options.warmup > 0) await autocannon({ url, connections: options.connections, duration: options.warmup, headers });
  return autocannon({ url, connections: options.connections, duration: options.duration, headers });
}

async function measureMachineFloor(options: Load): Promise<Row> {
  const port = await freePort();
  const floor = spawn("node", ["-e", MACHINE_FLOOR_SERVER, String(port)], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    await new Promise<void>((resolve, reject) => {
      floor.once("error", reject);
      floor.stdout?.once("data", () => resolve());
    });
    const result = await load(`http://127.0.0.1:${port}/`, options);
    return {
      path: MACHINE_FLOOR,
      encoding: "identity",
      bytes: result.throughput.total / Math.max(1, result.requests.total),
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
    };
  } finally {
    floor.kill("SIGTERM");
  }
}

async function measure(base: string, target: Target, options: Load): Promise<Row> {
  const isFloor = target.path === FLOOR;
  const isSignedIn = target.encoding === SIGNED_IN;
  const wanted: Encoding = isSignedIn ? "gzip" : (target.encoding as Encoding);
  const headers: Record<string, string> = { "accept-encoding": wanted };
  if (isSignedIn) headers.cookie = "next-auth.session-token=bench-not-a-session";
  // fetch decodes the body by its Content-Encoding: a wrongly labelled (or doubly encoded) API body fails to parse here.
  const warm = await fetch(`${base}${target.path}`, { headers });
  if (warm.ok === isFloor) throw new Error(`${target.path} answered ${warm.status}`);
  const encoding = warm.headers.get("content-encoding") ?? "identity";
  if (encoding !== wanted) throw new Error(`${target.path} came ${encoding}-encoded, not ${wanted}`);
  const text = await warm.text();
  if (target.path.startsWith("/api/")) JSON.parse(text);
  // Anonymous page reads come from the shared page cache, a signed-in one never does.
  const isShared = warm.headers.get("x-irc-page-cache") === "shared";
  if (!target.path.startsWith("/api/") && isShared === isSignedIn) {
    throw new Error(`${target.path} (${target.encoding}) was ${isShared ? "" : "not "}served from the shared page cache`);
  }
  const result = await load(`${base}${target.path}`, options, headers);
  return {
    path: target.path,
    encoding: target.encoding,
    // Bytes on the wire per response (compressed when gzip or br was asked for).
    bytes: result.throughput.total / Math.max(1, result.requests.total),
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + (isFloor ? 0 : result.non2xx),
  };
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        "database-url": { type: "string" },
        entries: { type: "string" },
        "test-samples": { type: "string" },
        connections: { type: "string" },
        duration: { type: "string" },
        warmup: { type: "string" },
        reuse: { type: "boolean" },
        build: { type: "boolean" },
        help: { type: "boolean" },
      },
    }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const entries = Number(values.entries ?? 1000);
  const testSamples = Number(values["test-samples"] ?? 1000);
  const connections = Number(values.connections ?? 50);
  const duration = Number(values.duration ?? 10);
  const warmup = Number(values.warmup ?? 2);
  // The rank computation of one view on the full-size test split, before any server work.
  console.log(formatRankBench(benchRanks({ entries, samples: 4633, runs: 5 })));
  if (![entries, testSamples, connections, duration].every((value) => Number.isInteger(value) && value > 0)) {
    console.error(`--entries, --test-samples, --connections and --duration take positive integers\n\n${USAGE}`);
    return 2;
  }
  if (!Number.isInteger(warmup) || warmup < 0) {
    console.error(`--warmup takes a whole number of seconds (0 or more)\n\n${USAGE}`);
    return 2;
  }
  let databaseUrl: string;
  try {
    const fallback = process.env.DATABASE_URL ? withDatabaseName(process.env.DATABASE_URL, "irc_bench_leaderboard_bench") : undefined;
    databaseUrl = assertLocalDatabaseUrl(values["database-url"] ?? fallback);
  } catch (error) {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const env = { ...process.env, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: "1" };

  console.error(`[bench] database ${new URL(databaseUrl).pathname.slice(1)} on ${new URL(databaseUrl).host}`);
  run("node", ["scripts/ops/ensure-database.mjs"], env);
  run("npx", ["prisma", "migrate", "deploy"], env);
  if (!values.reuse) {
    run("npx", ["tsx", "--conditions=react-server", "scripts/dev/seed-leaderboard.ts", "--reset", "--entries", String(entries), "--test-samples", String(testSamples)], env);
  }
  if (values.build) {
    run("npx", ["next", "build"], { ...env, NODE_ENV: "production" });
  } else if (!existsSync(path.join(ROOT, DIST_DIR, "BUILD_ID"))) {
    console.error(`error: no production build in ${DIST_DIR}; run \`npx next build\` first or pass --build`);
    return 2;
  }

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Its own process group, so the server and its children stop together.
  // The production server (next start plus precompressed API bodies passed on with their encoding).
  const server = spawn("node", [path.join(ROOT, "scripts", "server", "web-server.mjs"), "--port", String(port), "--hostname", "127.0.0.1"], {
    cwd: ROOT,
    env: { ...env, NODE_ENV: "production", PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  server.on("exit", (code, signal) => {
    if (code !== 0 && signal !== "SIGTERM") console.error(`[bench] the web server exited early (code ${code ?? "-"}, signal ${signal ?? "-"})`);
  });
  const stop = () => {
    if (server.pid !== undefined && server.exitCode === null) process.kill(-server.pid, "SIGTERM");
  };
  process.once("SIGINT", () => {
    stop();
    process.exit(130);
  });
  try {
    await waitForServer(base, server);
    const listed = (await (await fetch(`${base}/api/entries`)).json()) as { entries: { id: string; baseline: boolean }[] };
    const firstEntry = listed.entries.find((entry) => !entry.baseline) ?? listed.entries[0];
    if (firstEntry === undefined) throw new Error("no public entry to load the entry page of");
    const loadBefore = loadavg()[0] ?? 0;
    console.error(`[bench] ${MACHINE_FLOOR}: ${connections} connections for ${duration} s`);
    const options: Load = { connections, duration, warmup };
    const rows: Row[] = [await measureMachineFloor(options)];
    for (const listedTarget of TARGETS) {
      const target = listedTarget.path === ENTRY_PAGE ? { ...listedTarget, path: `/entries/${firstEntry.id}` } : listedTarget;
      console.error(`[bench] ${target.path} (${target.encoding}): ${connections} connections for ${duration} s`);
      rows.push(await measure(base, target, options));
    }
    console.log(
      `\n${entries} published entries (+4 baselines), ${connections} connections, ${duration} s per URL after ${warmup} s of warm-up, autocannon; ` +
        `${cpus().length} CPUs, 1-min load average ${formatDecimal(loadBefore, 1)} before and ${formatDecimal((loadavg()[0] ?? 0), 1)} after\n`,
    );
    console.log("| URL | encoding | bytes/response | req/s | p50 (ms) | p99 (ms) | errors |");
    console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
    for (const row of rows) {
      console.log(
        `| ${row.path === MACHINE_FLOOR ? row.path : `\`${row.path}\``}${row.path === FLOOR ? " (422, through Next.js)" : ""} | ${row.encoding} | ${formatDecimal((row.bytes / 1024), 0)} KiB | ${formatDecimal(row.rps, 0)} | ${row.p50} | ${row.p99} | ${row.errors} |`,
      );
    }
    return 0;
  } finally {
    stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
