import { CLIENT_COMMAND } from "../command-name";
import { randomUUID } from "node:crypto";
import { openAsBlob } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { submissionCreatedSchema, TERMINAL_STATUSES, type SubmissionCreated, type SubmissionViewBody } from "@/lib/core/api-schemas/submissions";
import { ApiRefusal, explainRefusal } from "@/lib/client/api-client";
import { ClientError, type ExitStatus } from "@/lib/client/client-error";
import { formatBytes } from "@/lib/core/format/bytes";
import { formatDuration } from "@/lib/core/format/dates";
import { describeWaitDetail, formatHeading, formatProblems, formatProgress, formatSubmission, isWaitingStatus, type QueuePosition, type WorkerState } from "@/lib/client/format";
import { writeJson, type CommandContext } from "./context";
import { fetchSubmission } from "./status";
import { readWorkerState } from "./workers";

type SubmitOptions = {
  file: string;
  split?: "dev" | "test";
  track?: "open" | "closed";
  isWaiting: boolean;
  /** Poll interval while waiting. */
  intervalMs: number;
  /** Give up waiting after this long (the submission goes on on the server). */
  timeoutMs: number;
  /** Sent as Idempotency-Key; a new UUID unless given (to retry an upload whose answer was lost). */
  idempotencyKey?: string;
};

/** How often, while waiting, the server is asked whether a worker is alive (its heartbeats are 5 s apart). */
const WORKER_CHECK_MS = 5_000;

/** Consecutive failed polls after which waiting stops (a server restart takes a few). */
const MAX_POLL_FAILURES = 5;

async function assertReadableFile(file: string): Promise<number> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new ClientError(2, [`${file}: not a file`]);
    return info.size;
  } catch (error) {
    if (error instanceof ClientError) throw error;
    const reason = error instanceof Error && "code" in error && error.code === "ENOENT" ? "no such file" : String(error);
    throw new ClientError(2, [`${file}: cannot be read: ${reason}`]);
  }
}

/** The file's fault: exit 1 with the server's problems, as the offline scorer prints them. */
function uploadRefusal(error: ApiRefusal, options: SubmitOptions, bytes: number, context: CommandContext): ClientError {
  if (error.status === 422) return new ClientError(1, formatProblems(options.file, error.serverMessage, error.problems));
  if (error.status === 413) {
    return new ClientError(1, [`${options.file}: ${formatBytes(bytes)} is over the server's upload limit; the file was not read. ${error.serverMessage}`]);
  }
  if (error.status === 400) return new ClientError(2, [`${options.file}: the server could not read the upload: ${error.serverMessage}`]);
  return explainRefusal(error, context.api.baseUrl, context.now());
}

async function upload(context: CommandContext, options: SubmitOptions, bytes: number): Promise<SubmissionCreated> {
  const form = new FormData();
  form.append("file", await openAsBlob(options.file), path.basename(options.file));
  if (options.split !== undefined) form.append("split", options.split);
  if (options.track !== undefined) form.append("track", options.track);
  const key = options.idempotencyKey ?? randomUUID();
  try {
    return await context.api.json("/api/submissions", submissionCreatedSchema, {
      method: "POST",
      body: form,
      headers: { "Idempotency-Key": key },
      isLong: true,
    });
  } catch (error) {
    if (error instanceof ApiRefusal) throw uploadRefusal(error, options, bytes, context);
    if (error instanceof ClientError) {
      // The answer was lost, not necessarily the upload: the same key makes a retry safe.
      throw new ClientError(2, [
        ...error.lines,
        `The upload may have reached the server. Check with: ${CLIENT_COMMAND} list`,
        `or send it again with the same key: ${CLIENT_COMMAND} submit ${options.file} --idempotency-key ${key}`,
      ]);
    }
    throw error;
  }
}

/**
 * Polls until the submission is SCORED or FAILED. On a terminal that can
 * redraw a line, a progress line is redrawn in place; anywhere else (a pipe, a
 * log, TERM=dumb) a line is printed only when what is known changes: the
 * status, the place in the queue, whether a worker is alive.
 */
async function waitForTerminal(context: CommandContext, created: SubmissionCreated, options: SubmitOptions): Promise<SubmissionViewBody> {
  const isTty = context.stderr.isTTY === true && context.canRedrawLine && !context.isJson;
  const started = context.now().getTime();
  let lastStatus: string = created.status;
  let lastDetail: string | null = null;
  let lastQueue: QueuePosition | null = null;
  let workers: WorkerState = { workersAlive: null };
  let workersReadAt = Number.NEGATIVE_INFINITY;
  let lastReported = "";
  let failures = 0;
  for (let frame = 0; ; frame += 1) {
    let view: SubmissionViewBody | null = null;
    try {
      view = await fetchSubmission(context, created.id);
      failures = 0;
    } catch (error) {
      failures += 1;
      if (!(error instanceof ClientError) || error.status !== 2 || failures >= MAX_POLL_FAILURES) {
        if (isTty) context.stderr.write("\r\x1b[2K");
        const lines = error instanceof ClientError ? error.lines : [String(error)];
        throw new ClientError(2, [...lines, `The submission ${created.id} goes on on the server; follow it with: ${CLIENT_COMMAND} status ${created.id}`]);
      }
    }
    const elapsedSeconds = (context.now().getTime() - started) / 1000;
    if (view !== null && TERMINAL_STATUSES.includes(view.status)) {
      if (isTty) context.stderr.write("\r\x1b[2K");
      return view;
    }
    if (view !== null) {
      // A queued job a worker is just taking has no place in the queue any more; until its status moves on,
      // the place last seen stands (no line saying only that the place is no longer known).
      const known: SubmissionViewBody = view.status === "QUEUED" && view.queuePosition === null && lastStatus === "QUEUED" ? { ...view, queuePosition: lastQueue } : view;
      lastStatus = known.status;
      lastQueue = known.queuePosition;
      if (isWaitingStatus(known.status) && context.now().getTime() - workersReadAt >= WORKER_CHECK_MS) {
        workers = await readWorkerState(context);
        workersReadAt = context.now().getTime();
      }
      lastDetail = describeWaitDetail(known, isWaitingStatus(known.status) ? workers : { workersAlive: null });
    }
    const reported = lastDetail === null ? lastStatus : `${lastStatus}, ${lastDetail}`;
    if (isTty) {
      context.stderr.write(`\r\x1b[2K${formatProgress(lastStatus, elapsedSeconds, frame, lastDetail)}`);
    } else if (reported !== lastReported && !context.isJson) {
      context.stderr.write(`${created.id}: ${reported} (after ${formatDuration(elapsedSeconds)})\n`);
    }
    lastReported = reported;
    if (elapsedSeconds * 1000 >= options.timeoutMs) {
      if (isTty) context.stderr.write("\r\x1b[2K");
      throw new ClientError(2, [
        `Stopped waiting after ${formatDuration(elapsedSeconds)}: submission ${created.id} is still ${lastStatus}.`,
        `It goes on on the server; follow it with: ${CLIENT_COMMAND} status ${created.id}`,
      ]);
    }
    await context.sleep(options.intervalMs);
  }
}

/**
 * `submit FILE [--split dev|test] [--track open|closed] [--wait]`: uploads the
 * file; with --wait, follows it to SCORED (exit 0, the scores), FAILED because
 * the file is invalid (exit 1, the lines at fault) or FAILED on the
 * platform's side (exit 2).
 */
export async function runSubmit(context: CommandContext, options: SubmitOptions): Promise<ExitStatus> {
  if (!context.api.hasToken) {
    throw new ClientError(2, [`No API token for ${context.api.baseUrl}. Create one on ${context.api.baseUrl}/account/tokens, then run: ${CLIENT_COMMAND} login`]);
  }
  const bytes = await assertReadableFile(options.file);
  const created = await upload(context, options, bytes);
  if (!options.isWaiting) {
    if (context.isJson) writeJson(context, created);
    else {
      context.stdout.write(
        `Submission ${created.id}: ${created.split} split, ${created.track} track, ${created.sampleCount} samples, ${created.status}.\n` +
          `Follow it with: ${CLIENT_COMMAND} status ${created.id}   (or ${created.pageUrl})\n`,
      );
    }
    return 0;
  }
  if (!context.isJson) context.stderr.write(`Uploaded ${options.file} as submission ${created.id} (${created.split}, ${created.track}); waiting for its scores.\n`);
  const view = await waitForTerminal(context, created, options);
  if (context.isJson) writeJson(context, view);
  if (view.status === "SCORED") {
    if (!context.isJson) context.stdout.write(formatSubmission(view, { workersAlive: null }));
    return 0;
  }
  const isInvalid = view.failureKind === "INVALID";
  if (!context.isJson) {
    context.stderr.write(`${formatHeading(view)}\n`);
    context.stderr.write(`${isInvalid ? `${options.file}: ` : ""}${view.failureReason ?? "no reason given"}\n`);
  }
  return isInvalid ? 1 : 2;
}
