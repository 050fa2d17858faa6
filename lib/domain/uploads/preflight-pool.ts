import "server-only";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { checkPredictionFile, type PredictionFileCheck, type PreflightReply, type PreflightTask } from "@/lib/domain/uploads/check-prediction-file";
import type { KbIndex } from "@/lib/core/scoring/gold";
import type { Track } from "@/lib/core/scoring/tracks";
import { buildAnswerIndex, type AnswerIndex } from "@/lib/core/integrity/answer-digests";

/**
 * Pre-flight validation of staged uploads in a small pool of worker threads,
 * so a large file being checked never holds up the web server's event loop
 * (reads stalled behind uploads: p99 619 ms against 57 ms). One
 * file per thread at a time, the rest wait in order. Production runs the
 * esbuild bundle dist/preflight/preflight-thread.mjs (npm run build makes
 * it); development and tests run the TypeScript source through tsx. Without
 * either, files are checked on the main thread (logged once).
 */
export const PREFLIGHT_THREADS = Math.max(1, Math.min(2, os.availableParallelism()));

type PreflightCheckRequest = {
  path: string;
  /** Names sampleIds and kb (release and split): a thread receives them once and keeps them. */
  referenceKey: string;
  sampleIds: readonly string[];
  kb: KbIndex;
  /** The release's train and dev gold QIDs: the answer key leaves them out (answer-digests.ts). */
  trainDevQids: readonly string[];
  track?: Track;
  split: "dev" | "test";
};

type Waiting = { request: PreflightCheckRequest; resolve: (check: PredictionFileCheck) => void; reject: (error: Error) => void };
type Thread = { worker: Worker; knownReferences: Set<string>; current: Waiting | null };

const queue: Waiting[] = [];
const threads: Thread[] = [];
let nextTaskId = 1;
let hasWarnedInline = false;

function threadScript(): { file: string; workerData?: { entry: string } } | null {
  const root = process.cwd();
  const bundle = path.join(root, "dist", "preflight", "preflight-thread.mjs");
  const source = path.join(root, "workers", "preflight-thread.ts");
  const boot = path.join(root, "workers", "preflight-thread-boot.mjs");
  if (process.env.NODE_ENV === "production" && existsSync(bundle)) return { file: bundle };
  if (existsSync(source) && existsSync(boot) && existsSync(path.join(root, "node_modules", "tsx"))) return { file: boot, workerData: { entry: source } };
  if (existsSync(bundle)) return { file: bundle };
  return null;
}

function startThread(): Thread | null {
  const script = threadScript();
  if (!script) return null;
  // Reflect.construct, not `new Worker(path)`: Turbopack treats a `new Worker(...)` call as a bundling
  // entry and, with a path known only at run time, tried to bundle every file of the project.
  const worker: Worker = Reflect.construct(Worker, [script.file, { workerData: script.workerData }]);
  // Idle threads must not keep a script or a test process alive.
  worker.unref();
  const thread: Thread = { worker, knownReferences: new Set(), current: null };
  worker.on("message", (reply: PreflightReply) => {
    const waiting = thread.current;
    thread.current = null;
    worker.unref();
    if (waiting) {
      if ("error" in reply) waiting.reject(new Error(`pre-flight thread: ${reply.error}`));
      else waiting.resolve(reply.result);
    }
    dispatch();
  });
  const retire = (error: Error) => {
    const index = threads.indexOf(thread);
    if (index !== -1) threads.splice(index, 1);
    thread.current?.reject(error);
    thread.current = null;
    dispatch();
  };
  worker.on("error", (error) => retire(error));
  worker.on("exit", (code) => retire(new Error(`pre-flight thread exited with code ${code}`)));
  threads.push(thread);
  return thread;
}

function send(thread: Thread, waiting: Waiting): void {
  const { request } = waiting;
  const task: PreflightTask = { taskId: nextTaskId++, path: request.path, referenceKey: request.referenceKey, track: request.track, split: request.split };
  if (!thread.knownReferences.has(request.referenceKey)) {
    task.reference = { sampleIds: [...request.sampleIds], kb: request.kb, trainDevQids: [...request.trainDevQids] };
    thread.knownReferences.add(request.referenceKey);
  }
  thread.current = waiting;
  // A thread at work keeps the process alive until it answers.
  thread.worker.ref();
  thread.worker.postMessage(task);
}

function dispatch(): void {
  while (queue.length > 0) {
    let thread = threads.find((candidate) => candidate.current === null);
    if (!thread && threads.length < PREFLIGHT_THREADS) thread = startThread() ?? undefined;
    if (!thread) return;
    const waiting = queue.shift();
    if (waiting) send(thread, waiting);
  }
}

/** Pre-flight threads running now (started on the first upload, at most PREFLIGHT_THREADS). @internal exported for its tests. */
export function runningPreflightThreads(): number {
  return threads.length;
}

/** The answer index of a reference for the main thread's fallback, built once per reference. */
const inlineAnswerIndexes = new Map<string, AnswerIndex>();

function inlineAnswerIndex(request: PreflightCheckRequest): AnswerIndex {
  let index = inlineAnswerIndexes.get(request.referenceKey);
  if (!index) {
    index = buildAnswerIndex(request.kb, request.trainDevQids);
    inlineAnswerIndexes.set(request.referenceKey, index);
  }
  return index;
}

/** Validates a staged prediction file in a worker thread; the result is what checkPredictionFile returns. */
export async function checkInPool(request: PreflightCheckRequest): Promise<PredictionFileCheck> {
  if (threads.length === 0 && threadScript() === null) {
    if (!hasWarnedInline) console.warn("[preflight] no pre-flight thread script (run npm run build); validating on the main thread");
    hasWarnedInline = true;
    return checkPredictionFile({ ...request, kbQids: request.kb, answerIndex: inlineAnswerIndex(request) });
  }
  return new Promise<PredictionFileCheck>((resolve, reject) => {
    queue.push({ request, resolve, reject });
    dispatch();
  });
}
