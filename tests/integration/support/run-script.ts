import { spawn } from "node:child_process";
import path from "node:path";
import { REPO_ROOT } from "./processes";

export type ScriptResult = { code: number | null; stdout: string; stderr: string };

/**
 * Runs one of the repository's TypeScript scripts as an operator's npm script
 * does in a development checkout (tsx with the react-server condition), in this
 * checkout, with `env` (the test process's own by default), and collects its
 * output.
 */
export function runRepoScript(script: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env, timeoutMs = 240_000): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(REPO_ROOT, "node_modules/.bin/tsx"), ["--conditions=react-server", script, ...args], {
      cwd: REPO_ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: timeoutMs,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
