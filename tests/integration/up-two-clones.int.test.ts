import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bareEnv, cloneHead, run, type FreshClone } from "./support/fresh-clone";
import { descendantsOf, isAlive, killAllChildren, spawnChild, type ChildHandle, type ProcessInfo } from "./support/processes";
import { findFreePort } from "./support/redis-server";
import { waitFor } from "./support/wait";

/**
 * README, "The two commands": `npm run up` (scripts/ops/up.sh) in two clones of
 * this checkout's HEAD on one machine, started at the same moment, with an
 * environment of only PATH and HOME. Each must take its own web port (as
 * scripts/ops/services.sh does for PostgreSQL and Redis), print its URL only once
 * its site answers, and print what a second worker needs with the password
 * masked. Nothing either starts may outlive it: SIGTERM to the first stops its
 * web server, its worker and the services it started; SIGKILL of the second's
 * worker makes the second stop its web server and services too and exit with
 * one line.
 *
 * The clones are kept between runs under the system's temporary folder with
 * their node_modules and build directories (npm ci and next build, minutes on
 * a busy machine, run only when package-lock.json or HEAD changed: up.sh's own
 * rules); everything else, the services' data included, starts from scratch.
 */
const UP_TIMEOUT_MS = 1_200_000;
const KEPT = ["node_modules", ".next", "dist"];
/** The port both clones "used last": the first free one from 3270, away from the 3000 and 31xx of other work on this machine. */
let PREFERRED_PORT = 0;

type Up = { name: string; clone: FreshClone; handle: ChildHandle; port: number; processes: ProcessInfo[] };

const ups: Up[] = [];

function servicesStatus(clone: FreshClone): string {
  return run("bash", ["scripts/ops/services.sh", "status"], clone.dir, bareEnv());
}

async function answers(port: number): Promise<number | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(5_000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return null;
  }
}

async function startUp(name: string): Promise<Up> {
  const clone = cloneHead(name, KEPT);
  // Both remember the same port from a "last run", well away from the 3000 of whoever else works on this machine:
  // the one that claims it first keeps it, the other must move on.
  mkdirSync(path.join(clone.dir, ".data"), { recursive: true });
  writeFileSync(path.join(clone.dir, ".data", "web-port"), `${PREFERRED_PORT}\n`);
  const handle = spawnChild(name, "bash", ["scripts/ops/up.sh"], bareEnv(), { cwd: clone.dir });
  return { name, clone, handle, port: 0, processes: [] };
}

async function waitUntilUp(up: Up): Promise<void> {
  const line = await up.handle.waitForLine(/^IRC-Bench is up on http:\/\/localhost:\d+/, UP_TIMEOUT_MS);
  // Right after the line, before anything else: the site must already answer.
  const status = await answers(Number(/localhost:(\d+)/.exec(line)?.[1]));
  expect(status, `${up.name} printed "${line}" but its site did not answer:\n${up.handle.tail()}`).not.toBeNull();
  up.port = Number(/localhost:(\d+)/.exec(line)?.[1]);
  up.processes = descendantsOf(up.handle.pid);
}

beforeAll(async () => {
  PREFERRED_PORT = await findFreePort(3270);
  ups.push(await startUp("up-a"), await startUp("up-b"));
  await Promise.all(ups.map(waitUntilUp));
}, UP_TIMEOUT_MS + 60_000);

afterAll(async () => {
  await killAllChildren();
  // Should a test have failed half-way, the clones' services must not be left behind either.
  for (const up of ups) run("bash", ["scripts/ops/services.sh", "stop"], up.clone.dir, bareEnv());
});

describe("npm run up in two clones at once", () => {
  it("serves two sites on two ports, each printed once it answers, with the second worker's URLs masked", async () => {
    const [first, second] = ups;
    if (!first || !second) throw new Error("both clones must have started");
    expect(first.port).not.toBe(second.port);
    // One kept the port it used last; the other said it moved to the next free one.
    const ports = [first.port, second.port].sort((a, b) => a - b);
    expect(ports[0]).toBe(PREFERRED_PORT);
    const moved = ups.find((up) => up.port !== PREFERRED_PORT);
    expect(moved?.handle.lines).toContainEqual(`npm run up: port ${PREFERRED_PORT} is in use; the web server takes ${moved?.port}`);
    for (const up of ups) {
      // The web server this clone's up.sh started is the one listening on the printed port.
      const web = up.processes.filter((process) => process.args.includes("scripts/server/web-server.mjs"));
      expect(web.map((process) => process.args), up.handle.tail()).toEqual([expect.stringContaining(`--port ${up.port}`)]);
      const page = await fetch(`http://127.0.0.1:${up.port}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("evaluation protocol v1.3");

      const output = up.handle.lines.join("\n");
      const env = readFileSync(path.join(up.clone.dir, ".data", "services.env"), "utf8");
      const port = (name: string) => new RegExp(`${name}="[a-z]+://[^"]*:(\\d+)`).exec(env)?.[1];
      expect(output).toContain(
        `more workers:          DATABASE_URL=postgresql://irc:***@127.0.0.1:${port("DATABASE_URL")}/irc_bench REDIS_URL=redis://127.0.0.1:${port("REDIS_URL")} npm run worker`,
      );
      expect(output).toContain(`${path.join(up.clone.dir, ".data")}/services.env`);
      expect(output).not.toContain("irc:irc@");
      expect(output).toContain("stop:                  Ctrl-C stops the web server and the worker (and PostgreSQL and Redis, which this run started)");
      expect(readFileSync(path.join(up.clone.dir, ".data", "web-port"), "utf8")).toBe(`${up.port}\n`);
      expect(servicesStatus(up.clone)).toMatch(/postgresql: running[\s\S]*redis: running/);
    }
  });

  it("shows the demo's per-type numbers on the ranking slice once its worker has scored (the demo's min_group_n is small)", async () => {
    const up = ups[0];
    if (!up) throw new Error("no first clone");
    type TypeRow = { kind: string; by_type: Record<string, { n: number | null; value: number | null }> | null };
    const shown = await waitFor(
      async () => {
        const response = await fetch(`http://127.0.0.1:${up.port}/api/leaderboard?track=open`);
        if (response.status !== 200) return undefined;
        const { entries } = (await response.json()) as { entries: TypeRow[] };
        // Scored entries and baselines only: reported results (papers) carry their own per-type numbers.
        const scored = entries.filter((entry) => entry.kind !== "reported");
        const cells = scored.flatMap((entry) => Object.values(entry.by_type ?? {})).filter((cell) => cell.value !== null);
        return cells.length > 0 ? cells : undefined;
      },
      () => `no per-type number on the demo's open-track board after npm run up:\n${up.handle.tail()}`,
      { timeoutMs: 120_000 },
    );
    for (const cell of shown) expect(cell.n).toBeGreaterThanOrEqual(5);
  });

  it("stops its web server, worker and services on SIGTERM, leaving nothing running", async () => {
    const up = ups[0];
    if (!up) throw new Error("no first clone");
    expect(up.processes.some((process) => process.args.includes("scoring-worker"))).toBe(true);
    up.handle.child.kill("SIGTERM");
    const exit = await up.handle.waitForExit(60_000);
    expect(exit.code, up.handle.tail()).toBe(143);
    await waitFor(
      async () => (up.processes.every((process) => !isAlive(process.pid)) ? true : undefined),
      () => `still running after npm run up ended:\n${up.processes.filter((process) => isAlive(process.pid)).map((process) => `  ${process.pid} ${process.args}`).join("\n")}`,
      { timeoutMs: 20_000 },
    );
    expect(await answers(up.port)).toBeNull();
    expect(servicesStatus(up.clone)).toBe("postgresql: not running\nredis: not running\n");
    // The other clone's site does not mind.
    expect(await answers(ups[1]?.port ?? 0)).not.toBeNull();
  });

  it("ends, with one line saying why, when its worker dies, and leaves nothing running", async () => {
    const up = ups[1];
    if (!up) throw new Error("no second clone");
    const workerProcesses = up.processes.filter((process) => process.args.includes("workers/scoring-worker.ts"));
    const deepest = workerProcesses.at(-1);
    if (!deepest) throw new Error(`no worker among ${JSON.stringify(up.processes)}`);
    process.kill(deepest.pid, "SIGKILL");
    const exit = await up.handle.waitForExit(60_000);
    expect(exit.code, up.handle.tail()).toBe(1);
    // Its own lines: notes such as the port it took, then one saying why it ended, and nothing after it.
    const said = up.handle.lines.filter((line) => line.startsWith("npm run up: "));
    const why = /^npm run up: the scoring worker stopped \(exit \d+\); stopping everything else this run started$/;
    expect(said.filter((line) => /stopp|refus|fail/i.test(line))).toEqual([expect.stringMatching(why)]);
    expect(said.at(-1)).toMatch(why);
    await waitFor(
      async () => (up.processes.every((process) => !isAlive(process.pid)) ? true : undefined),
      () => `still running after npm run up ended:\n${up.processes.filter((process) => isAlive(process.pid)).map((process) => `  ${process.pid} ${process.args}`).join("\n")}`,
      { timeoutMs: 20_000 },
    );
    expect(await answers(up.port)).toBeNull();
    expect(servicesStatus(up.clone)).toBe("postgresql: not running\nredis: not running\n");
  });
});
