import { assertTestDatabase, assertTestRedis } from "@/testing/local-database";
import { spawnChild, type ChildHandle } from "./processes";

/**
 * Scoring workers as real child processes (`npx tsx --conditions=react-server
 * workers/scoring-worker.ts`), with the test process's environment plus
 * overrides (WORKER_LOCK_MS, BOOTSTRAP_RESAMPLES, REDIS_URL, ...).
 */
export type WorkerEnv = Partial<
  Record<
    | "REDIS_URL"
    | "DATABASE_URL"
    | "IRC_DATA_DIR"
    | "IRC_FILE_STORE"
    | "WORKER_CONCURRENCY"
    | "WORKER_LOCK_MS"
    | "WORKER_RECONCILE_MS"
    | "SCORING_MAX_ATTEMPTS"
    | "BOOTSTRAP_RESAMPLES"
    | "BOOTSTRAP_SEED"
    | "LOG_LEVEL",
    string
  >
>;

export class WorkerProcess {
  readonly handle: ChildHandle;
  /** The pid of the node process that runs the worker (from its log lines), not of npx. */
  workerPid = 0;

  constructor(handle: ChildHandle) {
    this.handle = handle;
  }

  logs(count = 60): string {
    return this.handle.tail(count);
  }

  /** SIGKILL to the worker itself, mid-job: no chance to clean up or release its job lock. */
  async kill(): Promise<void> {
    process.kill(this.workerPid, "SIGKILL");
    await this.handle.waitForExit(15_000);
    this.handle.killGroup("SIGKILL");
  }

  /** SIGTERM: the worker finishes its current jobs and exits 0. */
  async stop(timeoutMs = 60_000): Promise<void> {
    if (!this.handle.isRunning) return;
    process.kill(this.workerPid, "SIGTERM");
    await this.handle.waitForLine(/"msg":"closed"/, timeoutMs).catch(() => undefined);
    await this.handle.waitForExit(timeoutMs);
    this.handle.killGroup("SIGKILL");
  }
}

let counter = 0;

export async function startWorker(env: WorkerEnv = {}, options: { readyTimeoutMs?: number } = {}): Promise<WorkerProcess> {
  // A worker writes to the database and takes jobs: only ever against test services.
  assertTestDatabase(env.DATABASE_URL ?? process.env.DATABASE_URL);
  assertTestRedis(env.REDIS_URL ?? process.env.REDIS_URL);
  counter += 1;
  // Info lines (ready, re-queued, closed) are what the tests read: NODE_ENV=test alone would log warnings only.
  const handle = spawnChild(`worker#${counter}`, "npx", ["tsx", "--conditions=react-server", "workers/scoring-worker.ts"], {
    ...process.env,
    LOG_LEVEL: "info",
    ...env,
  });
  const worker = new WorkerProcess(handle);
  // The worker logs JSON lines (pino): {"level":30,"time":...,"pid":1234,...,"msg":"ready: queue ..."}.
  const ready = await handle.waitForLine(/"msg":"ready: /, options.readyTimeoutMs ?? 90_000);
  const pid = /"pid":(\d+)/.exec(ready)?.[1];
  if (pid === undefined) throw new Error(`cannot read the worker pid from: ${ready}`);
  worker.workerPid = Number(pid);
  return worker;
}
