import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bareEnv } from "./support/fresh-clone";
import { REPO_ROOT } from "./support/processes";

/**
 * The first checks of `npm run up` (scripts/ops/up.sh, scripts/lib.sh), each
 * in a second, without the slow two-clone run of up-two-clones.int.test.ts:
 * an explicit PORT that is taken (or no port at all) is refused in one line
 * before anything starts, and the dependencies are installed with the dev
 * tools even when the shell has NODE_ENV=production.
 */
const scratch = mkdtempSync(path.join(os.tmpdir(), "irc-up-checks-"));
let listener: Server;
let takenPort = 0;

beforeAll(async () => {
  listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const address = listener.address();
  takenPort = typeof address === "object" && address !== null ? address.port : 0;
});

afterAll(async () => {
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  rmSync(scratch, { recursive: true, force: true });
});

/** up.sh with IRC_DATA_DIR in the scratch folder: a refusal must leave nothing behind there. */
function up(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(scratch, "data-"));
  const result = spawnSync("bash", ["scripts/ops/up.sh"], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    timeout: 30_000,
    // Only PATH and HOME, as a fresh shell: no NODE_ENV, no DATABASE_URL of the test run.
    env: bareEnv({ IRC_DATA_DIR: dataDir, ...env }),
  });
  return { ...result, dataDir };
}

describe("npm run up with PORT set", () => {
  it("refuses a PORT something listens on, in one line, before starting anything", () => {
    const result = up({ PORT: String(takenPort) });
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([
      `npm run up: port ${takenPort} (PORT) is in use (another checkout's npm run up, or another server); choose another PORT, or unset it and a free port is picked`,
    ]);
    expect(result.stdout).toBe("");
    // Nothing was installed, started or remembered.
    expect(existsSync(path.join(result.dataDir, "services.env"))).toBe(false);
    expect(existsSync(path.join(result.dataDir, "web-port"))).toBe(false);
  });

  it("refuses a PORT that is not a port number, naming it", () => {
    const result = up({ PORT: "80a" });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual(["npm run up: PORT=80a is not a port number (1-65535)"]);
  });
});

describe("ensure_dependencies (scripts/lib.sh)", () => {
  it("installs the dev dependencies too when the shell has NODE_ENV=production", () => {
    // A checkout without node_modules, and an npm that records how it was called.
    const root = mkdtempSync(path.join(scratch, "checkout-"));
    copyFileSync(path.join(REPO_ROOT, "package-lock.json"), path.join(root, "package-lock.json"));
    const bin = mkdtempSync(path.join(scratch, "bin-"));
    const calls = path.join(scratch, "npm-calls");
    writeFileSync(path.join(bin, "npm"), `#!/bin/sh\necho "NODE_ENV=$NODE_ENV npm $*" >>"${calls}"\nmkdir -p node_modules\n`);
    chmodSync(path.join(bin, "npm"), 0o755);
    const result = spawnSync("bash", ["-c", `source scripts/lib.sh && ROOT="$1" && ensure_dependencies`, "up-checks", root], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      env: bareEnv({ PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`, NODE_ENV: "production" }),
    });
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(calls, "utf8").trim().split("\n")).toEqual(["NODE_ENV=production npm ci --include=dev --no-audit --no-fund --loglevel=error"]);
    expect(readFileSync(path.join(root, "node_modules", ".irc-lock-stamp"), "utf8")).toBe(readFileSync(path.join(root, "package-lock.json"), "utf8"));
  });
});
