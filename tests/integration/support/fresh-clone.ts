import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO_ROOT } from "./processes";

/**
 * Another machine's checkout, for tests that follow the README or
 * docs/deploy.md the way an operator would: a git clone of this checkout's
 * HEAD in the system's temporary folder, kept between runs (under a name per
 * checkout and purpose) and brought to HEAD each time, with everything git
 * does not track removed except what `keep` names (node_modules, say).
 */
export type FreshClone = { root: string; dir: string; head: string };

export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env, timeoutMs = 600_000): string {
  return execFileSync(command, args, { cwd, env, timeout: timeoutMs, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** Like run(), but a failure's message carries the command's output (npm and next print their errors on stdout). */
export function runOrExplain(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 900_000): string {
  try {
    return run(command, args, cwd, env, timeoutMs);
  } catch (error) {
    const failed = error as { status?: number | null; stdout?: string; stderr?: string };
    const output = `${failed.stdout ?? ""}\n${failed.stderr ?? ""}`.trim().split("\n").slice(-60).join("\n");
    throw new Error(`\`${command} ${args.join(" ")}\` in ${cwd} failed (exit ${failed.status ?? "?"}):\n${output}`);
  }
}

/** Runs a command that may fail; its status and its stdout and stderr together, as a terminal shows them. */
export function runCapturing(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 900_000): { status: number | null; output: string } {
  const result = spawnSync("sh", ["-c", '"$@" 2>&1', "sh", command, ...args], { cwd, env, timeout: timeoutMs, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, output: result.stdout };
}

export function cloneHead(purpose: string, keep: readonly string[] = []): FreshClone {
  const root = path.join(os.tmpdir(), `irc-bench-${purpose}-${createHash("sha256").update(REPO_ROOT).digest("hex").slice(0, 12)}`);
  const dir = path.join(root, "platform");
  const head = run("git", ["rev-parse", "HEAD"], REPO_ROOT).trim();
  mkdirSync(root, { recursive: true });
  if (!existsSync(path.join(dir, ".git"))) run("git", ["clone", "--quiet", "--no-checkout", REPO_ROOT, dir], root);
  run("git", ["fetch", "--quiet", REPO_ROOT, head], dir);
  run("git", ["checkout", "--quiet", "--force", "--detach", head], dir);
  run("git", ["clean", "--quiet", "-fdx", ...keep.flatMap((pattern) => ["-e", pattern])], dir);
  return { root, dir, head };
}

/** An environment holding nothing of this machine's configuration: no database, Redis, secret or NODE_ENV. */
export function bareEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: process.env.HOME, NEXT_TELEMETRY_DISABLED: "1", ...extra };
  // Next.js's types declare NODE_ENV always present; here it is deliberately absent unless `extra` sets it.
  return env as NodeJS.ProcessEnv;
}
