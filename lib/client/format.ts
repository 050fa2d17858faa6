import { CLIENT_COMMAND } from "./command-name";
import type { DisclosedReportBody } from "@/lib/core/api-schemas/scores";
import type { SubmissionSummaryBody, SubmissionViewBody, TestQuotaBody } from "@/lib/core/api-schemas/submissions";
import { feedbackEstimateLabel } from "@/lib/core/format/disclosure-text";
import { formatBytes } from "@/lib/core/format/bytes";
import { formatDateTime, formatDuration } from "@/lib/core/format/dates";
import { formatCount, formatMetric, formatMetricInterval } from "@/lib/core/format/numbers";
import { formatPBucket, formatPStatement } from "@/lib/core/format/p-values";
import { describeIdenticalPublicEntry } from "@/lib/core/submissions/describe-identical-public-entry";
import { TRACK_NAMES } from "@/lib/core/scoring/tracks";


/**
 * What the command-line client prints: plain text for a terminal, from the
 * parsed answers of the API. Pure: the clock is a parameter.
 */

const PRIMARY: Record<string, string> = { open: "alias", closed: "hit@1" };

/** "2026-12-01 18:04 UTC", as the pages write a moment (lib/core/format). */
function formatUtc(date: Date): string {
  return formatDateTime(date);
}

/** When a refused request may be made again, from Retry-After: the next test submission (quota), or any other limit. */
export function describeRetryAfter(seconds: number, now: Date, limit: "test" | "other"): string {
  const at = `${formatUtc(new Date(now.getTime() + seconds * 1000))} (in ${formatDuration(seconds)})`;
  return limit === "test" ? `The next test submission is free at ${at}. Dev submissions cost no test quota.` : `Try again at ${at}.`;
}

/** One aligned table; `align` has one letter per column, l(eft) or r(ight): numbers right, words left. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[], align: string): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (align[column] === "r" ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

function reportLines(report: DisclosedReportBody): string[] {
  const primary = PRIMARY[report.track] ?? "";
  const rows = Object.entries(report.metrics).map(([key, value]) => [key === primary ? `${key} (primary)` : key, formatMetric(key, value), formatMetricInterval(key, report.ci95[key])]);
  const lines = [formatTable(["metric", "value", "95% CI"], rows, "lrr")];
  if (report.by_type !== null) {
    const groups = Object.entries(report.by_type).flatMap(([type, group]) => (group === undefined ? [] : [[type, group] as const]));
    const typeRows = groups.map(([type, group]) =>
      group.isSuppressed ? [type, String(group.n), "(too few to show)", ""] : [type, String(group.n), formatMetric(primary, group.metrics[primary]), formatMetricInterval(primary, group.ci95[primary])],
    );
    if (typeRows.length > 0) lines.push("", `By entity type (${primary}):`, formatTable(["type", "n", primary, "95% CI"], typeRows, "lrrr"));
  }
  return lines;
}

function comparisonLines(view: SubmissionViewBody): string[] {
  const track = view.comparisons.filter((comparison) => comparison.family === "track");
  if (track.length === 0) return [];
  const rows = track.map((comparison) =>
    comparison.kind === "verdict"
      ? [comparison.baselineLabel, comparison.verdict, `Holm ${formatPBucket(comparison.pHolmBucket)}`]
      : [comparison.baselineLabel, comparison.b > comparison.c ? "ahead" : comparison.b < comparison.c ? "behind" : "even", `b=${comparison.b} c=${comparison.c} Holm ${formatPStatement(comparison.pHolm)}`],
  );
  const heading =
    view.score?.report.disclosure.level === "owner" ? "Feedback estimate against the baselines, on the feedback slice (McNemar, Holm-adjusted):" : "Against the baselines (McNemar, Holm-adjusted):";
  return ["", heading, formatTable(["baseline", "", ""], rows, "lll")];
}

/** The heading line of a submission: id, split, track, status and how long it took. */
export function formatHeading(view: SubmissionViewBody): string {
  const took =
    view.finishedAt !== null ? ` in ${formatDuration((Date.parse(view.finishedAt) - Date.parse(view.createdAt)) / 1000)}` : "";
  return `Submission ${view.id}: ${view.split} split, ${TRACK_NAMES[view.track]} track, ${view.sampleCount} samples, ${view.status}${view.status === "SCORED" || view.status === "FAILED" ? took : ""}`;
}

export type QueuePosition = NonNullable<SubmissionViewBody["queuePosition"]>;

/** What the server says about its scoring workers (GET /api/health): how many are alive; null when it could not say. */
export type WorkerState = { workersAlive: number | null };

/** Whether a status means the submission still waits for a worker. */
export function isWaitingStatus(status: string): boolean {
  return status === "QUEUED" || status === "SCORING";
}

const NO_WORKER = "No scoring worker is alive on the server: the submission waits until the operators start one.";

/** "2 of 5 in the queue, 1 being scored now". */
function formatQueuePosition(queue: QueuePosition): string {
  return `${formatCount(queue.position)} of ${formatCount(queue.waiting)} in the queue${queue.beingScored > 0 ? `, ${formatCount(queue.beingScored)} being scored now` : ""}`;
}

function publicationLine(view: SubmissionViewBody): string | null {
  switch (view.publication) {
    case "PENDING":
      return "Publication: requested; a maintainer has not reviewed it yet.";
    case "PUBLISHED":
      return "Publication: published on the leaderboard.";
    case "REJECTED":
      return `Publication: rejected by a maintainer${view.reviewReason ? `: ${view.reviewReason}` : "."}`;
    case "HIDDEN":
      return "Publication: hidden from the leaderboard.";
    default:
      return null;
  }
}

/** What a test submission cost the owner's test quota (the quota ledger); nothing for a free one. */
function quotaLine(quota: SubmissionViewBody["quota"]): string | null {
  if (quota.state === "free") return null;
  if (quota.state === "refunded") return `Test quota: refunded${quota.reason ? ` (${quota.reason})` : ""}.`;
  return `Test quota: charged${quota.reason ? ` (${quota.reason})` : ""}.`;
}

/** Everything `status` and `submit --wait` print for a submission; the page link is the server's. */
export function formatSubmission(view: SubmissionViewBody, workers: WorkerState): string {
  const lines = [formatHeading(view), `File: ${view.originalName} (${formatBytes(view.fileBytes)}), ${view.releaseName}`];
  const quota = quotaLine(view.quota);
  if (quota !== null) lines.push(quota);
  if (view.status === "QUEUED" && view.queuePosition !== null) lines.push(`Queue: ${formatQueuePosition(view.queuePosition)}.`);
  if (isWaitingStatus(view.status) && workers.workersAlive === 0) lines.push(NO_WORKER);
  if (view.status === "FAILED") {
    lines.push(view.failureKind === "INVALID" ? "The file is invalid:" : "Scoring failed on the platform's side:", view.failureReason ?? "(no reason given)");
  }
  if (view.identicalPublicEntry) lines.push(describeIdenticalPublicEntry(view.identicalPublicEntry, view.isViewerOwner ? "owner" : "maintainer"));
  const publication = publicationLine(view);
  if (publication !== null) lines.push(publication);
  if (view.score !== null) {
    const { report } = view.score;
    // Protocol §12: the owner of an unpublished test file sees the feedback slice's numbers, labelled as the page labels them.
    const label = report.disclosure.level === "owner" ? [`${feedbackEstimateLabel(report.n)} (rounded; each 95% interval from the shown value and n alone):`] : [];
    lines.push("", ...label, ...reportLines(report), ...comparisonLines(view));
    if (view.score.isStale) lines.push("", "This score is stale (an older scorer or gold); a maintainer re-scores it.");
    if (report.disclosure.level === "owner") {
      lines.push(
        "",
        "Test split: overall numbers of the feedback slice only, rounded to 0.1 point, until the entry is published; the leaderboard shows the ranking slice's (protocol section 12).",
      );
    }
  }
  lines.push("", `Page: ${view.pageUrl}`);
  return `${lines.join("\n")}\n`;
}

/** The progress line while waiting on a terminal: status, time since the upload, and what else is known (the place in the queue). */
export function formatProgress(status: string, elapsedSeconds: number, frame: number, detail: string | null = null): string {
  const spinner = ["|", "/", "-", "\\"][frame % 4] ?? "|";
  const words: Record<string, string> = { QUEUED: "queued, waiting for a worker", SCORING: "scoring" };
  return `${spinner} ${words[status] ?? status.toLowerCase()} · ${formatDuration(elapsedSeconds)}${detail === null ? "" : ` · ${detail}`}`;
}

/** What `submit --wait` knows of a submission still waiting, besides its status: the place in the queue, a missing worker. */
export function describeWaitDetail(view: SubmissionViewBody, workers: WorkerState): string | null {
  const parts: string[] = [];
  if (view.status === "QUEUED" && view.queuePosition !== null) parts.push(formatQueuePosition(view.queuePosition));
  if (isWaitingStatus(view.status) && workers.workersAlive === 0) parts.push("no scoring worker is alive on the server");
  return parts.length === 0 ? null : parts.join(", ");
}

const PUBLICATION_CELLS: Record<string, string> = { PRIVATE: "-", PENDING: "pending", PUBLISHED: "published", REJECTED: "rejected", HIDDEN: "hidden" };

/** `list`: one row per submission, a QUEUED one with its place in the queue, and a note when no worker is alive. */
export function formatSubmissionList(submissions: readonly SubmissionSummaryBody[], queue: ReadonlyMap<string, QueuePosition>, workers: WorkerState): string {
  if (submissions.length === 0) return `No submissions yet. Upload one with: ${CLIENT_COMMAND} submit FILE --wait\n`;
  const rows = submissions.map((row) => {
    const position = queue.get(row.id);
    return [
      row.id,
      formatDateTime(row.createdAt),
      row.split,
      row.track,
      position === undefined ? row.status : `${row.status} (${formatCount(position.position)} of ${formatCount(position.waiting)})`,
      PUBLICATION_CELLS[row.publication] ?? row.publication.toLowerCase(),
      row.primary === null ? "-" : formatMetric(PRIMARY[row.track] ?? "", row.primary),
      row.originalName,
    ];
  });
  const lines = [formatTable(["id", "uploaded", "split", "track", "status", "publication", "primary", "file"], rows, "llllllrl")];
  if (queue.size > 0) lines.push("", "QUEUED (n of m): place n among the m jobs waiting for a worker (1 is next).");
  if (submissions.some((row) => row.publication === "PENDING")) lines.push("", "pending: publication requested, not yet reviewed by a maintainer.");
  if (workers.workersAlive === 0 && submissions.some((row) => isWaitingStatus(row.status))) {
    lines.push("", "No scoring worker is alive on the server: queued submissions wait until the operators start one.");
  }
  return `${lines.join("\n")}\n`;
}

export function formatQuota(quota: TestQuotaBody, now: Date): string {
  const lines = [
    `Test submissions left: ${formatCount(quota.remaining)}`,
    `  last 24 hours: ${formatCount(quota.usedToday)} of ${formatCount(quota.perDay)} used`,
    `  this release:  ${formatCount(quota.usedTotal)} of ${formatCount(quota.total)} used`,
  ];
  if (quota.nextFreeAt !== null && quota.usedToday >= quota.perDay && quota.usedTotal < quota.total) {
    const at = new Date(quota.nextFreeAt);
    lines.push(`The next one is free at ${formatUtc(at)} (in ${formatDuration((at.getTime() - now.getTime()) / 1000)}).`);
  }
  const { dev } = quota;
  lines.push(
    "Dev submissions cost no test quota, but are limited:",
    `  last hour:     ${formatCount(dev.usedLastHour)} of ${formatCount(dev.perHour)} uploads`,
    `  last 24 hours: ${formatBytes(dev.bytesUsedToday)} of ${formatBytes(dev.bytesPerDay)} stored`,
  );
  if (dev.nextFreeAt !== null && dev.usedLastHour >= dev.perHour) {
    const at = new Date(dev.nextFreeAt);
    lines.push(`The next dev upload is possible at ${formatUtc(at)} (in ${formatDuration((at.getTime() - now.getTime()) / 1000)}).`);
  }
  return `${lines.join("\n")}\n`;
}

/** The server's problems of an upload, one per line as the offline scorer prints them: FILE:LINE: message. */
export function formatProblems(file: string, message: string, problems: readonly { line?: number; message: string }[]): string[] {
  const lines = problems.map((problem) => (problem.line === undefined ? `${file}: ${problem.message}` : `${file}:${problem.line}: ${problem.message}`));
  return [...lines, `${file}: ${message}`];
}
