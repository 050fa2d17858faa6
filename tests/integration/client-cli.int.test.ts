import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// lib/platform/env.ts caches the environment on first use (lib/platform/db.ts reads it at
// import), so the limits of the in-process server are set before any import.
// PUBLIC_URL is not the address the client is given, so a page link the client
// built from --url would show; DEV_UPLOADS_PER_HOUR is not the default, so a
// limit the client made up would show too.
const previousEnv = vi.hoisted(() => {
  const previous = {
    TEST_QUOTA_PER_DAY: process.env.TEST_QUOTA_PER_DAY,
    UPLOAD_MAX_BYTES: process.env.UPLOAD_MAX_BYTES,
    PUBLIC_URL: process.env.PUBLIC_URL,
    DEV_UPLOADS_PER_HOUR: process.env.DEV_UPLOADS_PER_HOUR,
  };
  process.env.TEST_QUOTA_PER_DAY = "2";
  process.env.UPLOAD_MAX_BYTES = String(256 * 1024);
  process.env.PUBLIC_URL = "https://bench.example.test";
  process.env.DEV_UPLOADS_PER_HOUR = "37";
  return previous;
});

const PUBLIC_URL = "https://bench.example.test";

import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { API_OPERATIONS } from "@/lib/web/api/all-operations";
import { submissionListSchema, submissionViewSchema } from "@/lib/core/api-schemas/submissions";
import { db } from "@/lib/platform/db";
import { getEnv, sliceSecretOf } from "@/lib/platform/env";
import { getSharedRedis } from "@/lib/platform/redis";
import { isFeedbackEntity } from "@/lib/core/slices/slice-membership";
import type { Digest } from "@/lib/core/dataset/release-summary";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { FACT_SHEET_TEMPLATE } from "@/lib/core/fact-sheet/template";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import { assertTestServices } from "@/testing/local-database";
import { killAllChildren, REPO_ROOT } from "./support/processes";
import { importSmallRelease, predictionLines, scoreOffline, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { startRouteServer, type RouteServer } from "./support/route-server";
import { waitFor, waitForStatus } from "./support/wait";
import { startWorker, type WorkerProcess } from "./support/workers";
import { freePort } from "@/testing/free-port";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * The command-line client (dist/cli/irc-bench-client.mjs, the downloadable
 * bundle) against a real HTTP server that runs the app's route handlers on
 * the test PostgreSQL and Redis, with a real scoring worker: login, submit
 * (valid, invalid, too large, over the quota) with --wait, status, list,
 * quota, publish and download, and the exit statuses 0/1/2 of the offline
 * scorer. TEST_QUOTA_PER_DAY=2, UPLOAD_MAX_BYTES=256 KiB,
 * DEV_UPLOADS_PER_HOUR=37 and PUBLIC_URL=https://bench.example.test here.
 */

const BUNDLE = path.join(REPO_ROOT, "dist", "cli", "irc-bench-client.mjs");

let release: TestRelease;
let participant: TestUser;
let token: string;
let server: RouteServer;
let worker: WorkerProcess;
let home: string;
let configFile: string;

type ClientRun = { code: number | null; stdout: string; stderr: string };

/** Runs the bundle as a participant would, with its own HOME and config file. */
function runClient(args: string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<ClientRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUNDLE, ...args], {
      cwd: home,
      env: { NODE_ENV: "production", PATH: process.env.PATH ?? "", HOME: home, IRC_BENCH_URL: server.url, IRC_BENCH_CONFIG: configFile, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}

async function writePredictions(name: string, lines: readonly string[]): Promise<string> {
  const file = path.join(home, name);
  await writeFile(file, toJsonl(lines));
  return file;
}


const percent = (value: number | undefined) => `${((value ?? Number.NaN) * 100).toFixed(1)}%`;

beforeAll(async () => {
  assertTestServices();
  expect(getEnv().TEST_QUOTA_PER_DAY).toBe(2);
  await promisify(execFile)(process.execPath, [path.join(REPO_ROOT, "scripts", "build", "build-cli.mjs"), "--if-stale", "client"], { cwd: REPO_ROOT });
  await resetTestState();
  release = await importSmallRelease(31);
  participant = await createTestUser({ label: "cli", withoutPassword: true });
  ({ token } = await createApiToken({ actor: sessionActor(participant), name: "laptop" }));
  home = await mkdtemp(path.join(os.tmpdir(), "irc-client-"));
  configFile = path.join(home, ".config", "irc-bench", "config.json");
  server = await startRouteServer(Number(process.env.E2E_PORT ?? 0));
  worker = await startWorker({ WORKER_CONCURRENCY: "1", BOOTSTRAP_RESAMPLES: "200" });
});

afterAll(async () => {
  await worker?.stop();
  killAllChildren();
  await server?.close();
  if (home) await rm(home, { recursive: true, force: true });
  for (const [name, value] of Object.entries(previousEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

describe("irc-bench-client login", () => {
  it("refuses a token the server does not know and stores nothing", async () => {
    const run = await runClient(["login"], { input: `ircb_${"A".repeat(43)}\n` });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("refused the credentials");
    expect(run.stderr).toContain(`${server.url}/account/tokens`);
    await expect(stat(configFile)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("checks a pasted token with the server and stores it in a file only its owner can read (mode 600)", async () => {
    // An older copy readable by everyone is narrowed to 600, not kept as it was.
    await mkdir(path.dirname(configFile), { recursive: true });
    await writeFile(configFile, '{"servers": {}}\n', { mode: 0o644 });
    await chmod(configFile, 0o644);
    const run = await runClient(["login"], { input: `${token}\n` });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Logged in to ${server.url} as ${participant.displayName} (participant).`);
    expect((await stat(configFile)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(configFile, "utf8")) as { defaultUrl: string; servers: Record<string, { token: string }> };
    expect(saved.defaultUrl).toBe(server.url);
    expect(saved.servers[server.url]?.token).toBe(token);
  });

  it("uses the saved server and token without IRC_BENCH_URL", async () => {
    const run = await runClient(["list", "--json"], { env: { IRC_BENCH_URL: "" } });
    expect(run.code).toBe(0);
    expect(submissionListSchema.parse(JSON.parse(run.stdout)).submissions).toEqual([]);
  });
});

describe("irc-bench-client submit", () => {
  it("uploads a dev file, waits for its scores and prints the server's numbers (exit 0)", async () => {
    const lines = predictionLines(release, "dev", "open", 0.6, 11);
    const file = await writePredictions("dev-open.jsonl", lines);
    const expected = scoreOffline(release, "dev", toJsonl(lines), { seed: 42, resamples: 200 }).report;
    const run = await runClient(["submit", file, "--wait", "--interval", "0.2"]);
    expect(run.stderr).toMatch(/^Uploaded .*dev-open\.jsonl as submission \w+ \(dev, open\); waiting for its scores\.\n/);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Submission \w+: dev split, open-world track, 126 samples, SCORED in /);
    const metrics = expected.metrics as Record<string, number>;
    expect(run.stdout).toMatch(new RegExp(`^alias \\(primary\\)\\s+${percent(metrics.alias).replace(".", "\\.")}\\s+\\[`, "m"));
    expect(run.stdout).toMatch(new RegExp(`^exact\\s+${percent(metrics.exact).replace(".", "\\.")}`, "m"));
    expect(run.stdout).toContain("By entity type (alias):");
    // The server's pageUrl (from PUBLIC_URL), not one made from the address the client was given.
    expect(run.stdout).toMatch(new RegExp(`Page: ${PUBLIC_URL.replaceAll(".", "\\.")}/submissions/\\w+\n`));
    expect(run.stdout).not.toContain(`${server.url}/submissions/`);
  });

  it("with --json prints the submission as the API answers it, parsed by the API's schema", async () => {
    const file = await writePredictions("dev-closed.jsonl", predictionLines(release, "dev", "closed", 0.5, 12));
    const run = await runClient(["submit", file, "--wait", "--json", "--interval", "0.2"]);
    expect(run.code).toBe(0);
    const view = submissionViewSchema.parse(JSON.parse(run.stdout));
    expect(view).toMatchObject({ status: "SCORED", split: "dev", track: "closed", sampleCount: 126 });
    expect(view.score?.report.metrics["hit@1"]).toBeTypeOf("number");
  });

  it("prints every problem of an invalid file as FILE:LINE: message and exits 1, creating no submission", async () => {
    const lines = predictionLines(release, "dev", "open", 0.5, 13);
    const firstId = (JSON.parse(lines[0] ?? "{}") as { id: string }).id;
    const broken = [lines[0] ?? "", lines[1] ?? "", JSON.stringify({ id: firstId, prediction: "twice" }), "{not json", ...lines.slice(4)];
    const file = await writePredictions("broken.jsonl", broken);
    const before = await db.submission.count({ where: { userId: participant.id } });
    const run = await runClient(["submit", file, "--wait"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    const problemLines = run.stderr.trim().split("\n");
    expect(problemLines.some((line) => line.startsWith(`${file}:3: `) && line.includes(firstId))).toBe(true);
    expect(problemLines.some((line) => line.startsWith(`${file}:4: `))).toBe(true);
    expect(problemLines.at(-1)).toMatch(new RegExp(`^${file.replaceAll(".", "\\.")}: The file was rejected with \\d+ problem\\(s\\); nothing was scored and no quota was used`));
    expect(await db.submission.count({ where: { userId: participant.id } })).toBe(before);
  });

  it("says a file over the server's limit is too large (413) and exits 1", async () => {
    const file = path.join(home, "huge.jsonl");
    await writeFile(file, "");
    await truncate(file, 300 * 1024);
    const run = await runClient(["submit", file]);
    expect(run.stderr).toContain("is over the server's upload limit");
    expect(run.code).toBe(1);
  });

  it("shows a progress line on a terminal while it waits", async () => {
    const file = await writePredictions("dev-tty.jsonl", predictionLines(release, "dev", "open", 0.3, 14));
    // script(1) gives the client a pseudo-terminal, as a person's shell would. The queue is
    // paused until the progress line has been drawn, so the client sees the job waiting.
    await getScoringQueue().pause();
    const command = [process.execPath, BUNDLE, "submit", file, "--wait", "--interval", "0.1"].map((part) => `'${part}'`).join(" ");
    let sawProgress: () => void = () => undefined;
    const progressDrawn = new Promise<void>((resolve) => (sawProgress = resolve));
    const finished = new Promise<ClientRun>((resolve, reject) => {
      const child = spawn("script", ["-qfec", command, "/dev/null"], {
        cwd: home,
        env: { NODE_ENV: "production", PATH: process.env.PATH ?? "", HOME: home, IRC_BENCH_URL: server.url, IRC_BENCH_CONFIG: configFile, TERM: "xterm" },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
        if (stdout.includes("queued, waiting for a worker")) sawProgress();
      });
      child.once("error", reject);
      child.once("close", (code) => resolve({ code, stdout, stderr: "" }));
      child.stdin.end();
    });
    await progressDrawn;
    await getScoringQueue().resume();
    const run = await finished;
    expect(run.code).toBe(0);
    // The line is redrawn in place (carriage return, erase line) and erased before the scores.
    const ERASE_LINE = "\r\u001b[2K";
    const drawn = run.stdout.split(ERASE_LINE).slice(1);
    expect(drawn.some((line) => /^[|/\\-] queued, waiting for a worker · \d+ s · 1 of 1 in the queue/.test(line))).toBe(true);
    expect(run.stdout).toContain("SCORED");
  });

  it("off a terminal, prints a status line only when something changes, however often it polls", async () => {
    const file = await writePredictions("dev-log.jsonl", predictionLines(release, "dev", "open", 0.4, 15));
    await getScoringQueue().pause();
    const before = server.requests.length;
    const finished = runClient(["submit", file, "--wait", "--interval", "0.05"]);
    // At least 15 polls of the same queued submission before a worker may take it.
    await waitFor(
      async () => (server.requests.slice(before).filter((request) => /^GET \/api\/submissions\/\w+$/.test(request)).length >= 15 ? true : undefined),
      () => `the client polled ${server.requests.length - before} times`,
    );
    await getScoringQueue().resume();
    const run = await finished;
    expect(run.code).toBe(0);
    const id = /as submission (\w+)/.exec(run.stderr)?.[1] ?? "";
    const statusLines = run.stderr.split("\n").filter((line) => line.startsWith(`${id}: `));
    expect(statusLines.length, run.stderr).toBeGreaterThan(0);
    expect(statusLines[0]).toMatch(new RegExp(`^${id}: QUEUED, 1 of 1 in the queue \\(after \\d+ s\\)$`));
    expect(statusLines.filter((line) => line.startsWith(`${id}: QUEUED`)), run.stderr).toHaveLength(1);
    // Each line says something the one before did not.
    const states = statusLines.map((line) => line.replace(/ \(after .*\)$/, ""));
    expect(states.filter((state, index) => state === states[index - 1])).toEqual([]);
  });
});

describe("irc-bench-client status and list", () => {
  it("lists the participant's submissions newest first, and status shows one", async () => {
    const list = await runClient(["list"]);
    expect(list.code).toBe(0);
    const rows = await db.submission.findMany({ where: { userId: participant.id }, orderBy: { createdAt: "desc" } });
    expect(rows.length).toBe(4);
    const lines = list.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^id\s+uploaded\s+split\s+track\s+status\s+publication\s+primary\s+file$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/)[0])).toEqual(rows.map((row) => row.id));
    expect(list.stdout).toContain("dev-open.jsonl");

    const first = rows.at(-1)!;
    const status = await runClient(["status", first.id]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`Submission ${first.id}: dev split, open-world track, 126 samples, SCORED`);
    expect(status.stdout).toContain("File: dev-open.jsonl");
  });

  it("says so when a submission is not the caller's (exit 2)", async () => {
    const run = await runClient(["status", "cl-no-such-submission"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("No submission cl-no-such-submission of yours");
  });
});

describe("irc-bench-client quota", () => {
  it("counts test submissions down and, when none is left, says when the next one frees (429, exit 2)", async () => {
    const before = await runClient(["quota"]);
    expect(before.code).toBe(0);
    expect(before.stdout).toContain("Test submissions left: 2");
    // The server's dev limit and this participant's dev uploads of the last hour, not "unlimited".
    const devLastHour = await db.submission.count({ where: { userId: participant.id, split: "dev", createdAt: { gt: new Date(Date.now() - 3600_000) } } });
    expect(devLastHour).toBeGreaterThan(0);
    expect(before.stdout).toContain(`  last hour:     ${devLastHour} of 37 uploads`);
    expect(before.stdout).toMatch(/ {2}last 24 hours: [\d.]+ KiB of 512 MiB stored\n/);
    expect(before.stdout).not.toContain("unlimited");
    const json = await runClient(["quota", "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ dev: { perHour: 37, usedLastHour: devLastHour, bytesPerDay: 512 * 1024 * 1024 } });
    for (const seed of [21, 22]) {
      const file = await writePredictions(`test-${seed}.jsonl`, predictionLines(release, "test", "open", 0.5, seed));
      const run = await runClient(["submit", file]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Submission \w+: test split, open track, 232 samples, QUEUED\./);
    }
    const after = await runClient(["quota"]);
    expect(after.stdout).toContain("Test submissions left: 0");
    expect(after.stdout).toContain("last 24 hours: 2 of 2 used");
    expect(after.stdout).toMatch(/The next one is free at \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in 2[34] h/);

    const third = await writePredictions("test-23.jsonl", predictionLines(release, "test", "open", 0.5, 23));
    const refused = await runClient(["submit", third]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("You have used your 2 test submissions of the last 24 hours.");
    expect(refused.stderr).toMatch(/The next test submission is free at \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in 2[34] h/);
  });
});

describe("irc-bench-client publish", () => {
  const description = "Sent from the command-line client for the test.";

  it("says a dev file cannot be published and exits with the usage code, sending nothing", async () => {
    const dev = await db.submission.findFirstOrThrow({ where: { userId: participant.id, split: "dev", status: "SCORED" } });
    const sheet = path.join(home, "publish-sheet.json");
    await writeFile(sheet, JSON.stringify(FACT_SHEET_TEMPLATE));
    const run = await runClient(["publish", dev.id, "--fact-sheet", sheet, "--description", description]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`Submission ${dev.id} is a dev submission: a dev file cannot be published.`);
    expect(run.stderr).not.toContain(sheet);
    expect(server.requests).not.toContain(`POST /api/submissions/${dev.id}/publication`);
    expect((await db.submission.findUniqueOrThrow({ where: { id: dev.id } })).publication).toBe("PRIVATE");
  });

  it("requests publication of a scored test submission; status and list then show it pending", async () => {
    const test = await db.submission.findFirstOrThrow({ where: { userId: participant.id, split: "test" }, orderBy: { createdAt: "asc" } });
    await waitForStatus(test.id, "SCORED", { workers: [worker] });
    const sheet = path.join(home, "publish-sheet.json");
    await writeFile(sheet, JSON.stringify(FACT_SHEET_TEMPLATE));
    const before = await runClient(["status", test.id]);
    expect(before.stdout).not.toContain("Publication:");
    // Protocol §12: before publication the owner's numbers are the feedback slice's, said as the page says it, with its n.
    const key = { secret: sliceSecretOf(getEnv()), sliceFamily: release.content.meta.name, feedbackFraction: 0.25 };
    const feedbackN = release.content.samples.test.filter((sample) => isFeedbackEntity(key, sample.qid)).length;
    expect(feedbackN).toBeGreaterThan(0);
    expect(feedbackN).toBeLessThan(release.content.samples.test.length);
    expect(before.stdout).toContain(`\nFeedback estimate on the feedback slice, n = ${feedbackN}: not the numbers the leaderboard uses (rounded; each 95% interval from the shown value and n alone):\nmetric`);
    expect(before.stdout).toContain("Test split: overall numbers of the feedback slice only, rounded to 0.1 point, until the entry is published; the leaderboard shows the ranking slice's");
    const run = await runClient(["publish", test.id, "--fact-sheet", sheet, "--description", description]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const status = await runClient(["status", test.id]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain("Publication: requested; a maintainer has not reviewed it yet.");
    expect(status.stdout).toContain(`Page: ${PUBLIC_URL}/submissions/${test.id}\n`);
    const list = await runClient(["list"]);
    const row = list.stdout.split("\n").find((line) => line.startsWith(`${test.id} `));
    expect(row).toMatch(/\bSCORED\s+pending\s/);
    expect(list.stdout).toContain("pending: publication requested, not yet reviewed by a maintainer.");
  });
});

describe("irc-bench-client credentials", () => {
  it("uses a token saved for localhost:PORT when given 127.0.0.1:PORT", async () => {
    const port = new URL(server.url).port;
    const aliasConfig = path.join(home, "alias-config.json");
    await writeFile(aliasConfig, JSON.stringify({ servers: { [`http://localhost:${port}`]: { token, savedAt: new Date().toISOString() } } }), { mode: 0o600 });
    const run = await runClient(["quota", "--url", `http://127.0.0.1:${port}`], { env: { IRC_BENCH_CONFIG: aliasConfig, IRC_BENCH_URL: "" } });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Test submissions left:");
  });

  it("says no token was sent, rather than that the server refused one, when none is saved (exit 2)", async () => {
    const run = await runClient(["quota"], { env: { IRC_BENCH_CONFIG: path.join(home, "no-such-config.json") } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`No API token was sent to ${server.url}: none is saved for it and IRC_BENCH_TOKEN is not set.`);
    expect(run.stderr).toContain(`node irc-bench-client.mjs login --url ${server.url}`);
    expect(run.stderr).not.toContain("refused the credentials");
  });
});

describe("irc-bench-client download", () => {
  it("writes a release file under the server's name after checking its SHA-256", async () => {
    const out = path.join(home, "data");
    const run = await runClient(["download", "dev", "--out", out]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const row = await db.datasetRelease.findUniqueOrThrow({ where: { id: release.releaseId } });
    const digest = (row.downloads as Record<string, Digest>)["dev.jsonl"];
    const name = `${row.name}-${row.version}-dev.jsonl`;
    expect(await readdir(out)).toEqual([name]);
    const bytes = await readFile(path.join(out, name));
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(digest?.sha256);
    expect(bytes.length).toBe(digest?.bytes);
    expect(run.stdout).toContain(`sha256 ${digest?.sha256} (verified)`);

    const kb = await runClient(["download", "kb", "--out", out, "--json"]);
    expect(kb.code).toBe(0);
    expect(JSON.parse(kb.stdout)).toMatchObject({ sha256: (row.downloads as Record<string, Digest>)["kb.jsonl"]?.sha256 });
  });
});

describe("irc-bench-client failures", () => {
  it("says it cannot reach a server that is not there (exit 2)", async () => {
    const port = await freePort();
    const run = await runClient(["list", "--url", `http://127.0.0.1:${port}`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`Cannot reach the IRC-Bench server at http://127.0.0.1:${port}: connection refused`);
  });

  it("says the token was refused (401) and how to get a new one (exit 2)", async () => {
    const run = await runClient(["quota"], { env: { IRC_BENCH_TOKEN: `ircb_${"B".repeat(43)}` } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${server.url} refused the credentials`);
    expect(run.stderr).toContain("node irc-bench-client.mjs login");
  });

  it("refuses a usage error with exit 2 and the help hint", async () => {
    const run = await runClient(["submit"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("submit takes one FILE");
    expect(run.stderr).toContain("Run with --help for usage.");
  });

  it("talked to the public and token API only", () => {
    // Before the contract test below adds requests of its own.
    const allowed = /^(GET|POST) \/(api\/(me|submissions(\/[^/]+(\/publication)?)?|quota|health)|dataset\/download\/[a-z]+\.jsonl)$/;
    expect(server.requests.filter((request) => !allowed.test(request))).toEqual([]);
  });
});

describe("irc-bench-client with no scoring worker alive", () => {
  it("status, list and submit --wait show the place in the queue and say no worker is alive", async () => {
    await worker.stop();
    const file = await writePredictions("dev-stranded.jsonl", predictionLines(release, "dev", "closed", 0.4, 16));
    const submitted = await runClient(["submit", file]);
    expect(submitted.code).toBe(0);
    const id = /^Submission (\w+):/.exec(submitted.stdout)?.[1] ?? "";
    // The place the API reports, which the client must print as it is.
    const api = submissionViewSchema.parse(await (await fetch(`${server.url}/api/submissions/${id}`, { headers: { Authorization: `Bearer ${token}` } })).json());
    const queue = api.queuePosition;
    if (queue === null) throw new Error("a QUEUED submission with no worker should have a place in the queue");

    const status = await runClient(["status", id]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`Queue: ${queue.position} of ${queue.waiting} in the queue.`);
    expect(status.stdout).toContain("No scoring worker is alive on the server: the submission waits until the operators start one.");

    const list = await runClient(["list"]);
    expect(list.stdout.split("\n").find((line) => line.startsWith(`${id} `))).toContain(`QUEUED (${queue.position} of ${queue.waiting})`);
    expect(list.stdout).toContain("No scoring worker is alive on the server: queued submissions wait until the operators start one.");

    const waited = await runClient(["submit", file, "--wait", "--interval", "0.1", "--timeout", "1"]);
    expect(waited.code).toBe(2);
    expect(waited.stderr).toMatch(/: QUEUED, \d+ of \d+ in the queue, no scoring worker is alive on the server \(after \d+ s\)\n/);
    expect(waited.stderr).toContain("Stopped waiting after");
  });
});

describe("the documented answers", () => {
  it("are what the server sends: every JSON GET of the API parses with its schema from lib/web/api/all-operations.ts", async () => {
    const [submission, newer] = await db.submission.findMany({ where: { userId: participant.id, split: "dev", track: "open", status: "SCORED" }, orderBy: { createdAt: "asc" }, take: 2 });
    if (submission === undefined || newer === undefined) throw new Error("two scored open-track dev runs are needed");
    const sampleId = release.content.samples.dev[0]?.id ?? "";
    const concrete: Record<string, string> = {
      "/api/submissions/{id}": `/api/submissions/${submission.id}`,
      "/api/submissions/{id}/samples": `/api/submissions/${newer.id}/samples?pageSize=10&against=${submission.id}&change=all`,
      "/api/submissions/{id}/analysis": `/api/submissions/${submission.id}/analysis`,
      "/api/submissions/compare": `/api/submissions/compare?old=${submission.id}&new=${newer.id}`,
      "/api/dataset/sample-split": `/api/dataset/sample-split?id=${sampleId}`,
      "/api/leaderboard": "/api/leaderboard?track=closed",
    };
    const checked: string[] = [];
    for (const operation of API_OPERATIONS) {
      const ok = Object.entries(operation.responses).find(([status, response]) => Number(status) < 300 && response.schema !== undefined);
      if (operation.method !== "get" || ok === undefined) continue;
      const url = concrete[operation.path] ?? operation.path;
      if (url.includes("{")) continue; // a public entry's id: no entry is published in this file
      const response = await fetch(`${server.url}${url}`, { headers: { Authorization: `Bearer ${token}` } });
      expect([200, 503], `${url} answered ${response.status}`).toContain(response.status);
      const schema = operation.responses[response.status]?.schema ?? ok[1].schema;
      const parsed = schema?.safeParse(await response.json());
      expect(parsed?.success, `${url}: ${parsed?.error?.message ?? ""}`).toBe(true);
      checked.push(operation.operationId);
    }
    expect(checked).toEqual(expect.arrayContaining(["listSubmissions", "getSubmission", "listSampleOutcomes", "getErrorAnalysis", "compareRuns", "getQuota", "getMe", "listApiTokens", "getLeaderboard", "listEntries", "getSampleSplit", "getHealth"]));
  });
});
