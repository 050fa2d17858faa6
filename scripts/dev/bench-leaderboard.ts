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
import { randomBytes } from "node:crypto";
import { get as httpGet } from "node:http";
import { existsSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { encode } from "next-auth/jwt";
import pg from "pg";
import { assertLocalDatabaseUrl, withDatabaseName } from "@/testing/local-database";
import { benchRanks, formatRankBench } from "./bench-ranks";
import { freePort } from "@/testing/free-port";
import { formatDecimal } from "@/lib/core/format/numbers";
import { BENCH_LOG_SIGNING_KEY, BENCH_SLICE_SECRET } from "./bench-support";

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
// kinds of floor: a plain node:http server answering a cached read's very bytes (before that read's rows), and a
// request Next.js routes to a route that answers with a 422 before any work (what every cache miss, client-side
// navigation and API error still pays).
const FLOOR = "/api/leaderboard?track=none";
type Encoding = "gzip" | "br" | "identity";
/** Replaced by the first published entry's page once the server answers. */
const ENTRY_PAGE = "/entries/FIRST";
/**
 * A reader with a real session cookie of a seeded participant (gzip): served
 * the same shared page as anyone (the header's account menu comes from
 * /api/account-menu, measured on its own row), which the script checks.
 */
const SIGNED_IN = "gzip, signed in" as const;
/** A plain node:http server answering the same bytes and headers as the row it is named after, from memory. */
const PLAIN = "gzip, plain node:http" as const;
type Target = { path: string; encoding: Encoding | typeof SIGNED_IN | typeof PLAIN };
const PAGE = "/leaderboard";
const API_READ = "/api/leaderboard?track=open";
const ACCOUNT_MENU = "/api/account-menu";
const TARGETS: Target[] = [
  { path: FLOOR, encoding: "identity" },
  { path: API_READ, encoding: PLAIN },
  { path: API_READ, encoding: "gzip" },
  { path: API_READ, encoding: "br" },
  { path: API_READ, encoding: "identity" },
  { path: "/api/entries", encoding: "gzip" },
  { path: "/api/leaderboard?track=unified", encoding: "gzip" },
  { path: "/api/leaderboard?track=open&limit=1000", encoding: "gzip" },
  { path: PAGE, encoding: PLAIN },
  { path: PAGE, encoding: "gzip" },
  { path: PAGE, encoding: SIGNED_IN },
  { path: PAGE, encoding: "br" },
  { path: "/leaderboard?track=closed&sort=system&dir=asc", encoding: "gzip" },
  { path: "/leaderboard/types/person?track=open", encoding: "gzip" },
  { path: "/leaderboard/matrix?track=open", encoding: "gzip" },
  { path: ENTRY_PAGE, encoding: "gzip" },
  { path: ENTRY_PAGE, encoding: SIGNED_IN },
  { path: ACCOUNT_MENU, encoding: SIGNED_IN },
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

/**
 * The floor of a cached read: a plain node:http server that answers every
 * request with one response captured from the platform (status, headers and
 * the gzip-encoded bytes, read from stdin), from memory, doing nothing else.
 */
const PLAIN_SERVER = `
const http = require("node:http");
const chunks = [];
process.stdin.on("data", (chunk) => chunks.push(chunk));
process.stdin.on("end", () => {
  const captured = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const body = Buffer.from(captured.body, "base64");
  http.createServer((req, res) => {
    res.writeHead(captured.status, captured.headers);
    res.end(body);
  }).listen(Number(process.argv[1]), "127.0.0.1", () => console.log("ready"));
});
`;

type Captured = { status: number; headers: Record<string, string>; body: Buffer };

/** One response as it went over the wire: headers and the still-encoded body (fetch would decode it). */
function capture(url: string, headers: Record<string, string>): Promise<Captured> {
  return new Promise((resolve, reject) => {
    const outgoing = httpGet(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          // Date and Connection are the server's own per response; node:http writes them as the platform does.
          if (value === undefined || name === "date" || name === "connection" || name === "keep-alive" || name === "transfer-encoding") continue;
          kept[name] = Array.isArray(value) ? value.join(", ") : value;
        }
        resolve({ status: response.statusCode ?? 0, headers: kept, body: Buffer.concat(chunks) });
      });
    });
    outgoing.on("error", reject);
  });
}

type Load = { connections: number; duration: number; warmup: number };

/** A run of `warmup` seconds first (JIT, first reads from Redis), then the measured one. */
async function load(url: string, options: Load, headers: Record<string, string> = {}): Promise<autocannon.Result> {
  if (options.warmup > 0) await autocannon({ url, connections: options.connections, duration: options.warmup, headers });
  return autocannon({ url, connections: options.connections, duration: options.duration, headers });
}

function rowOf(target: Target, result: autocannon.Result, countNon2xx: boolean): Row {
  return {
    path: target.path,
    encoding: target.encoding,
    // Bytes on the wire per response (compressed when gzip or br was asked for).
    bytes: result.throughput.total / Math.max(1, result.requests.total),
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + (countNon2xx ? result.non2xx : 0),
  };
}

/** The plain node:http row of `target`: the platform's gzip answer to it, captured once, then served from memory. */
async function measurePlain(base: string, target: Target, options: Load): Promise<Row> {
  const captured = await capture(`${base}${target.path}`, { "accept-encoding": "gzip" });
  if (captured.status !== 200 || captured.headers["content-encoding"] !== "gzip") throw new Error(`${target.path} did not answer 200 with gzip`);
  const port = await freePort();
  const plain = spawn("node", ["-e", PLAIN_SERVER, String(port)], { stdio: ["pipe", "pipe", "inherit"] });
  try {
    await new Promise<void>((resolve, reject) => {
      plain.once("error", reject);
      plain.stdout?.once("data", () => resolve());
      plain.stdin?.end(JSON.stringify({ status: captured.status, headers: captured.headers, body: captured.body.toString("base64") }));
    });
    const result = await load(`http://127.0.0.1:${port}${target.path}`, options, { "accept-encoding": "gzip" });
    return rowOf(target, result, true);
  } finally {
    plain.kill("SIGTERM");
  }
}

/** A real session of a seeded participant, as next-auth's sign-in sets it (the token holds the user id). */
async function sessionCookie(databaseUrl: string, secret: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const found = await client.query<{ id: string }>(`SELECT "id" FROM "User" WHERE "isSystem" = false AND "role" = 'PARTICIPANT' ORDER BY "createdAt" LIMIT 1`);
    const userId = found.rows[0]?.id;
    if (userId === undefined) throw new Error("the bench database has no participant to sign in as");
    return `next-auth.session-token=${await encode({ token: { sub: userId }, secret, maxAge: 60 * 60 })}`;
  } finally {
    await client.end();
  }
}

async function measure(base: string, target: Target, options: Load, session: string): Promise<Row> {
  if (target.encoding === PLAIN) return measurePlain(base, target, options);
  const isFloor = target.path === FLOOR;
  const isSignedIn = target.encoding === SIGNED_IN;
  const wanted: Encoding = target.encoding === SIGNED_IN ? "gzip" : target.encoding;
  const headers: Record<string, string> = { "accept-encoding": wanted };
  if (isSignedIn) headers.cookie = session;
  // fetch decodes the body by its Content-Encoding: a wrongly labelled (or doubly encoded) API body fails to parse here.
  const warm = await fetch(`${base}${target.path}`, { headers });
  if (warm.ok === isFloor) throw new Error(`${target.path} answered ${warm.status}`);
  const encoding = warm.headers.get("content-encoding") ?? "identity";
  const isMenu = target.path === ACCOUNT_MENU;
  // The account menu is a few bytes, which Next.js encodes as it likes.
  if (!isMenu && encoding !== wanted) throw new Error(`${target.path} came ${encoding}-encoded, not ${wanted}`);
  const text = await warm.text();
  if (target.path.startsWith("/api/")) JSON.parse(text);
  if (isMenu && !(JSON.parse(text) as { signedIn: boolean }).signedIn) throw new Error("the bench session is not signed in");
  // Every page read comes from the shared page cache, signed in or not.
  if (!target.path.startsWith("/api/") && warm.headers.get("x-irc-page-cache") !== "shared") {
    throw new Error(`${target.path} (${target.encoding}) was not served from the shared page cache`);
  }
  const result = await load(`${base}${target.path}`, options, headers);
  return rowOf(target, result, !isFloor);
}

/** The issue's two targets as ratios of p50s from this one run: each within 2x. */
function formatRatios(rows: Row[], entryPage: string): string {
  const p50 = (path: string, encoding: Target["encoding"]) => rows.find((row) => row.path === path && row.encoding === encoding)?.p50 ?? Number.NaN;
  const ratios = [
    { name: `\`${PAGE}\` (gzip) / plain node:http, same bytes`, over: p50(PAGE, "gzip"), under: p50(PAGE, PLAIN) },
    { name: `\`${API_READ}\` (gzip) / plain node:http, same bytes`, over: p50(API_READ, "gzip"), under: p50(API_READ, PLAIN) },
    { name: `\`${PAGE}\` signed in / anonymous`, over: p50(PAGE, SIGNED_IN), under: p50(PAGE, "gzip") },
    { name: "entry page signed in / anonymous", over: p50(entryPage, SIGNED_IN), under: p50(entryPage, "gzip") },
  ];
  const lines = ["| p50 ratio (target ≤ 2) | p50 (ms) | against (ms) | ratio |", "| --- | ---: | ---: | ---: |"];
  for (const ratio of ratios) {
    lines.push(`| ${ratio.name} | ${formatDecimal(ratio.over, 1)} | ${formatDecimal(ratio.under, 1)} | ${formatDecimal(ratio.over / ratio.under, 2)} |`);
  }
  return lines.join("\n");
}

// eslint-disable-next-line max-lines-per-function -- a benchmark's script, read top to bottom
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
  // The server and the bench's session cookie share the secret; a run without one makes its own.
  const authSecret = process.env.NEXTAUTH_SECRET || randomBytes(32).toString("base64url");
  // The seeder and the production server key the slices alike, with the benchmarks' own secret (production refuses the development one).
  const env = { ...process.env, DATABASE_URL: databaseUrl, NEXTAUTH_SECRET: authSecret, IRC_SLICE_SECRET: BENCH_SLICE_SECRET, IRC_LOG_SIGNING_KEY: BENCH_LOG_SIGNING_KEY, NEXT_TELEMETRY_DISABLED: "1" };

  console.error(`[bench] database ${new URL(databaseUrl).pathname.slice(1)} on ${new URL(databaseUrl).host}`);
  run("node", ["scripts/ops/ensure-database.mjs"], env);
  run("node", ["scripts/ops/prisma-migrate.mjs", "deploy"], env);
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
    const session = await sessionCookie(databaseUrl, authSecret);
    const loadBefore = loadavg()[0] ?? 0;
    const options: Load = { connections, duration, warmup };
    const rows: Row[] = [];
    for (const listedTarget of TARGETS) {
      const target = listedTarget.path === ENTRY_PAGE ? { ...listedTarget, path: `/entries/${firstEntry.id}` } : listedTarget;
      console.error(`[bench] ${target.path} (${target.encoding}): ${connections} connections for ${duration} s`);
      const row = await measure(base, target, options, session);
      rows.push(row);
      console.error(`[bench]   p50 ${formatDecimal(row.p50, 1)} ms, p99 ${formatDecimal(row.p99, 1)} ms, ${formatDecimal(row.rps, 0)} req/s`);
    }
    console.log(
      `\n${entries} published entries (+4 baselines), ${connections} connections, ${duration} s per URL after ${warmup} s of warm-up, autocannon; ` +
        `${cpus().length} CPUs, 1-min load average ${formatDecimal(loadBefore, 1)} before and ${formatDecimal((loadavg()[0] ?? 0), 1)} after\n`,
    );
    console.log("| URL | encoding | bytes/response | req/s | p50 (ms) | p99 (ms) | errors |");
    console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
    for (const row of rows) {
      console.log(
        `| \`${row.path}\`${row.path === FLOOR ? " (422, through Next.js)" : ""} | ${row.encoding} | ${formatDecimal((row.bytes / 1024), 0)} KiB | ${formatDecimal(row.rps, 0)} | ${formatDecimal(row.p50, 1)} | ${formatDecimal(row.p99, 1)} | ${row.errors} |`,
      );
    }
    console.log(`\n${formatRatios(rows, `/entries/${firstEntry.id}`)}`);
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
