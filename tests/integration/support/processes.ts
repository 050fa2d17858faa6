import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * Child processes started by a test (scoring workers, a dedicated
 * redis-server). Each is started in its own process group and remembered, so
 * `killAllChildren()` in afterEach/afterAll ends exactly what the tests
 * started, even when a test failed half-way; a process exit hook does the same
 * if vitest itself goes down.
 */
export const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));

const MAX_LOG_LINES = 400;

export class ChildHandle {
  readonly name: string;
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  exitStatus: { code: number | null; signal: NodeJS.Signals | null } | null = null;

  constructor(name: string, child: ChildProcess) {
    this.name = name;
    this.child = child;
    this.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.exitStatus = { code, signal };
        resolve({ code, signal });
      });
    });
    for (const stream of [child.stdout, child.stderr]) {
      let pending = "";
      stream?.setEncoding("utf8");
      stream?.on("data", (chunk: string) => {
        pending += chunk;
        const parts = pending.split("\n");
        pending = parts.pop() ?? "";
        for (const line of parts) this.addLine(line);
      });
    }
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error(`${this.name} has no pid (did it start?)`);
    return this.child.pid;
  }

  get isRunning(): boolean {
    return this.exitStatus === null;
  }

  private addLine(line: string): void {
    this.lines.push(line);
    if (this.lines.length > MAX_LOG_LINES) this.lines.splice(0, this.lines.length - MAX_LOG_LINES);
    this.waiters = this.waiters.filter((waiter) => {
      if (!waiter.pattern.test(line)) return true;
      waiter.resolve(line);
      return false;
    });
  }

  /** The last lines of its output, for failure messages. */
  tail(count = 40): string {
    return this.lines.slice(-count).map((line) => `  ${this.name}| ${line}`).join("\n");
  }

  /** Resolves with the first output line (from now or already seen) matching `pattern`. */
  async waitForLine(pattern: RegExp, timeoutMs: number): Promise<string> {
    const seen = this.lines.find((line) => pattern.test(line));
    if (seen !== undefined) return seen;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        new Promise<string>((resolve) => this.waiters.push({ pattern, resolve })),
        this.exited.then((status) => {
          throw new Error(`${this.name} exited (code ${status.code}, signal ${status.signal}) before printing ${pattern}:\n${this.tail()}`);
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`${this.name} did not print ${pattern} within ${timeoutMs} ms:\n${this.tail()}`)), timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits for the process to exit; kills its group with SIGKILL after `timeoutMs`. */
  async waitForExit(timeoutMs = 15_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    const result = await Promise.race([this.exited, timeout]);
    clearTimeout(timer);
    if (result !== "timeout") return result;
    this.killGroup("SIGKILL");
    return this.exited;
  }

  /**
   * Signals the whole process group this child leads (npx -> tsx -> node, say).
   * Tried even after the leader exited: a grandchild may still hold the group.
   */
  killGroup(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Every child started since the last killAllChildren(), exited or not. */
const spawned = new Set<ChildHandle>();

process.once("exit", () => {
  for (const handle of spawned) handle.killGroup("SIGKILL");
});

export function spawnChild(name: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv, options: { cwd?: string } = {}): ChildHandle {
  const child = spawn(command, args, { cwd: options.cwd ?? REPO_ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const handle = new ChildHandle(name, child);
  spawned.add(handle);
  child.once("error", (error) => handle.lines.push(`spawn error: ${error.message}`));
  return handle;
}

/** SIGKILLs every child the tests started that is still running, and waits for them to go. */
export async function killAllChildren(): Promise<void> {
  const handles = [...spawned];
  spawned.clear();
  for (const handle of handles) handle.killGroup("SIGKILL");
  await Promise.all(handles.map((handle) => handle.waitForExit(10_000)));
}

export type ProcessInfo = { pid: number; args: string };

/** Every process below `pid` in the process tree (children, grandchildren, ...), as `ps` sees it now. */
export function descendantsOf(pid: number): ProcessInfo[] {
  const rows = execFileSync("ps", ["-e", "-o", "pid=,ppid=,args="], { encoding: "utf8" })
    .split("\n")
    .flatMap((line) => {
      const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
      return match ? [{ pid: Number(match[1]), ppid: Number(match[2]), args: match[3] ?? "" }] : [];
    });
  const found: ProcessInfo[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const row of rows) {
      if (row.ppid !== parent) continue;
      found.push({ pid: row.pid, args: row.args });
      queue.push(row.pid);
    }
  }
  return found;
}

/** Whether a process with this pid exists (a zombie counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\S+\s+\S+\s+Z/.test(execFileSync("ps", ["-o", "pid=,ppid=,stat=", "-p", String(pid)], { encoding: "utf8" }).trim());
  } catch {
    return false;
  }
}
