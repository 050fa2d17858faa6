import type { DisclosedReportBody } from "@/lib/api/schemas/scores";
import type { SubmissionSummaryBody, SubmissionViewBody, TestQuotaBody } from "@/lib/api/schemas/submissions";

/**
 * What the command-line client prints: plain text for a terminal, from the
 * parsed answers of the API. Pure: the clock is a parameter.
 */

const PRIMARY: Record<string, string> = { open: "alias", closed: "hit@1" };
const TRACK_NAMES: Record<string, string> = { open: "open-world", closed: "closed-world" };

/** A rate as a percentage with one decimal (rates are fractions in [0, 1]); MRR stays a fraction. */
export function formatMetric(key: string, value: number | null | undefined): string {
  if (value === null || value === undefined) return "-";
  return key === "mrr" ? value.toFixed(3) : `${(value * 100).toFixed(1)}%`;
}

function formatInterval(key: string, interval: readonly [number, number] | null | undefined): string {
  if (!interval) return "";
  return key === "mrr" ? `[${interval[0].toFixed(3)}, ${interval[1].toFixed(3)}]` : `[${(interval[0] * 100).toFixed(1)}, ${(interval[1] * 100).toFixed(1)}]`;
}

/** "42 s", "3 min 5 s", "2 h 10 min". */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

/** "2026-12-01 18:04 UTC". */
export function formatUtc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function describeRetryAfter(seconds: number, now: Date): string {
  return `The next test submission is free at ${formatUtc(new Date(now.getTime() + seconds * 1000))} (in ${formatDuration(seconds)}). Dev submissions are unlimited.`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
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
  const rows = Object.entries(report.metrics).map(([key, value]) => [key === primary ? `${key} (primary)` : key, formatMetric(key, value), formatInterval(key, report.ci95[key])]);
  const lines = [formatTable(["metric", "value", "95% CI"], rows, "lrr")];
  if (report.by_type !== null) {
    const groups = Object.entries(report.by_type).flatMap(([type, group]) => (group === undefined ? [] : [[type, group] as const]));
    const typeRows = groups.map(([type, group]) =>
      group.isSuppressed ? [type, String(group.n), "(too few to show)", ""] : [type, String(group.n), formatMetric(primary, group.metrics[primary]), formatInterval(primary, group.ci95[primary])],
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
      ? [comparison.baselineLabel, comparison.verdict, `p_holm ${comparison.pHolmBucket}`]
      : [comparison.baselineLabel, comparison.b > comparison.c ? "ahead" : comparison.b < comparison.c ? "behind" : "even", `b=${comparison.b} c=${comparison.c} p_holm=${comparison.pHolm.toPrecision(2)}`],
  );
  return ["", "Against the baselines (McNemar, Holm-adjusted):", formatTable(["baseline", "", ""], rows, "lll")];
}

/** The heading line of a submission: id, split, track, status and how long it took. */
export function formatHeading(view: SubmissionViewBody): string {
  const took =
    view.finishedAt !== null ? ` in ${formatDuration((Date.parse(view.finishedAt) - Date.parse(view.createdAt)) / 1000)}` : "";
  return `Submission ${view.id}: ${view.split} split, ${TRACK_NAMES[view.track] ?? view.track} track, ${view.sampleCount} samples, ${view.status}${view.status === "SCORED" || view.status === "FAILED" ? took : ""}`;
}

/** Everything `status` and `submit --wait` print for a submission. */
export function formatSubmission(view: SubmissionViewBody, pageUrl: string): string {
  const lines = [formatHeading(view), `File: ${view.originalName} (${formatBytes(view.fileBytes)}), ${view.releaseName}`];
  if (view.status === "FAILED") {
    lines.push(view.failureKind === "INVALID" ? "The file is invalid:" : "Scoring failed on the platform's side:", view.failureReason ?? "(no reason given)");
  }
  if (view.score !== null) {
    lines.push("", ...reportLines(view.score.report), ...comparisonLines(view));
    if (view.score.isStale) lines.push("", "This score is stale (an older scorer or gold); a maintainer re-scores it.");
    if (view.score.report.disclosure.level === "owner") {
      lines.push("", "Test split: overall numbers only, rounded to 0.1 point, until the entry is published (protocol section 12).");
    }
  }
  lines.push("", `Page: ${pageUrl}`);
  return `${lines.join("\n")}\n`;
}

/** The progress line while waiting: status and time since the upload. */
export function formatProgress(status: string, elapsedSeconds: number, frame: number): string {
  const spinner = ["|", "/", "-", "\\"][frame % 4] ?? "|";
  const words: Record<string, string> = { QUEUED: "queued, waiting for a worker", SCORING: "scoring" };
  return `${spinner} ${words[status] ?? status.toLowerCase()} · ${formatDuration(elapsedSeconds)}`;
}

export function formatSubmissionList(submissions: readonly SubmissionSummaryBody[]): string {
  if (submissions.length === 0) return "No submissions yet. Upload one with: irc-bench-client submit FILE --wait\n";
  const rows = submissions.map((row) => [
    row.id,
    row.createdAt.slice(0, 16).replace("T", " "),
    row.split,
    row.track,
    row.status,
    row.primary === null ? "-" : formatMetric(PRIMARY[row.track] ?? "", row.primary),
    row.originalName,
  ]);
  return `${formatTable(["id", "uploaded (UTC)", "split", "track", "status", "primary", "file"], rows, "lllllrl")}\n`;
}

export function formatQuota(quota: TestQuotaBody, now: Date): string {
  const lines = [
    `Test submissions left: ${quota.remaining}`,
    `  last 24 hours: ${quota.usedToday} of ${quota.perDay} used`,
    `  this release:  ${quota.usedTotal} of ${quota.total} used`,
  ];
  if (quota.nextFreeAt !== null && quota.usedToday >= quota.perDay && quota.usedTotal < quota.total) {
    const at = new Date(quota.nextFreeAt);
    lines.push(`The next one is free at ${formatUtc(at)} (in ${formatDuration((at.getTime() - now.getTime()) / 1000)}).`);
  }
  lines.push("Dev submissions are unlimited.");
  return `${lines.join("\n")}\n`;
}

/** The server's problems of an upload, one per line as the offline scorer prints them: FILE:LINE: message. */
export function formatProblems(file: string, message: string, problems: readonly { line?: number; message: string }[]): string[] {
  const lines = problems.map((problem) => (problem.line === undefined ? `${file}: ${problem.message}` : `${file}:${problem.line}: ${problem.message}`));
  return [...lines, `${file}: ${message}`];
}
