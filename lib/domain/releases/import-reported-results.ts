import "server-only";
import { ENTITY_TYPES } from "@/lib/core/dataset/release-schema";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import { Prisma } from "@/lib/platform/generated/prisma";
import { readReleaseStats, type ReleaseStats } from "@/lib/core/dataset/release-json";
import { findReleaseFor, parseReportedFile, type ReportedFile } from "@/lib/core/dataset/reported-schema";
import { formatValue } from "@/lib/core/format/numbers";
import type { ViewMetric } from "@/lib/core/leaderboard/views";
import { appendPublicLog } from "@/lib/domain/public-log/append-public-log";

type ImportReportedOptions = {
  /** The parsed JSON of a reported-results file (reported-schema.ts). */
  file: unknown;
  /** Remove the release's other reported rows first, so the file becomes the whole set. */
  replace?: boolean;
};

type ImportReportedResult = {
  release: { id: string; name: string; version: string };
  created: number;
  updated: number;
  removed: number;
  /** Not errors: for example a per-type n that differs from the release's own count. */
  warnings: string[];
};

function countWarnings(file: ReportedFile, stats: ReleaseStats | null): string[] {
  if (stats === null) return [];
  // One warning per (type, split, stated n): a paper's table repeats its n on every row.
  const mismatches = new Map<string, { type: string; split: string; stated: number; actual: number; rows: number[] }>();
  file.results.forEach((row, index) => {
    for (const type of ENTITY_TYPES) {
      const stated = row.by_type?.[type]?.n;
      const actual = stats.byType[type]?.samples[row.split];
      if (stated === undefined || actual === undefined || stated === actual) continue;
      const key = `${type}|${row.split}|${stated}`;
      const found = mismatches.get(key) ?? { type, split: row.split, stated, actual, rows: [] };
      found.rows.push(index);
      mismatches.set(key, found);
    }
  });
  return [...mismatches.values()].map(
    (mismatch) =>
      `by_type.${mismatch.type}.n is ${mismatch.stated} (results ${mismatch.rows.map((row) => `[${row}]`).join(", ")}), but the release's ${mismatch.split} split has ${mismatch.actual} ${mismatch.type} samples`,
  );
}

type ReportedRow = { name: string; track: string; split: string; metrics: unknown; byType: unknown; source: string; publishedOn: Date | null };
type ReportedChange = { kind: "reported.added" | "reported.edited" | "reported.removed"; row: ReportedRow; before?: ReportedRow };

/** A reported number as the leaderboard prints it (a paper's number, never a count). */
function shownMetrics(metrics: unknown): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [key, value] of Object.entries((metrics ?? {}) as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (typeof value === "number") shown[key] = formatValue(value, key as ViewMetric);
  }
  return shown;
}

function isSameReported(before: ReportedRow, after: ReportedRow): boolean {
  const text = (row: ReportedRow) => JSON.stringify([shownMetrics(row.metrics), row.byType ?? null, row.source, row.publishedOn?.toISOString() ?? null]);
  return text(before) === text(after);
}

const REPORTED_VERB = { "reported.added": "added", "reported.edited": "edited", "reported.removed": "removed" } as const;

async function logReportedChange(tx: Prisma.TransactionClient, release: { id: string; name: string; version: string }, change: ReportedChange): Promise<void> {
  const { row } = change;
  await appendPublicLog(tx, {
    kind: change.kind,
    release,
    summary: `Reported result "${row.name}" (${row.track}-world, ${row.split}) ${REPORTED_VERB[change.kind]}`,
    data: {
      name: row.name,
      track: row.track,
      split: row.split,
      source: row.source,
      metrics: change.kind === "reported.removed" ? {} : shownMetrics(row.metrics),
      ...(change.before ? { metrics_before: shownMetrics(change.before.metrics), source_before: change.before.source } : {}),
    },
  });
}

/**
 * Imports a file of results reported in papers into the release it names, as
 * upserts keyed by (release, name, track, split). A file for a release that is
 * not imported is refused: its rows would describe other data.
 */
export async function importReportedResults(options: ImportReportedOptions): Promise<ImportReportedResult> {
  const parsed = parseReportedFile(options.file);
  if (!parsed.ok) {
    throw new AppError("validation", `The reported results were rejected: ${parsed.problems.length} problem(s).`, {
      problems: parsed.problems.map((problem) => ({ message: `${problem.path}: ${problem.message}` })),
    });
  }
  const { file } = parsed;
  const releases = await db.datasetRelease.findMany({
    select: { id: true, name: true, version: true, stats: true },
    orderBy: [{ name: "asc" }, { version: "asc" }],
  });
  const release = findReleaseFor(file.release, releases);
  if (release === null) {
    const known = releases.map((candidate) => `${candidate.name} ${candidate.version}`).join(", ") || "none";
    throw new AppError(
      "not_found",
      `The file is for release ${file.release.name} ${file.release.version}, which is not imported here (imported: ${known}). ` +
        "Reported results attach only to the release they were measured on: import that release first " +
        "(npm run dataset:import -- DIR), or correct \"release\" in the file.",
    );
  }

  const warnings = countWarnings(file, release.stats === null ? null : readReleaseStats(release.stats));
  const existing = await db.reportedResult.findMany({
    where: { releaseId: release.id },
    select: { name: true, track: true, split: true, metrics: true, byType: true, source: true, publishedOn: true },
  });
  const existingKeys = new Set(existing.map((row) => `${row.name}\u0000${row.track}\u0000${row.split}`));
  const fileKeys = new Set(file.results.map((row) => `${row.name}\u0000${row.track}\u0000${row.split}`));

  let removed = 0;
  await db.$transaction(async (tx) => {
    const changes: ReportedChange[] = [];
    if (options.replace) {
      const gone = existing.filter((row) => !fileKeys.has(`${row.name}\u0000${row.track}\u0000${row.split}`));
      removed = gone.length;
      changes.push(...gone.map((row) => ({ kind: "reported.removed" as const, row: { ...row, metrics: row.metrics } })));
      await tx.reportedResult.deleteMany({ where: { releaseId: release.id } });
    }
    for (const row of file.results) {
      const data = {
        metrics: row.metrics as Prisma.InputJsonValue,
        byType: row.by_type === undefined ? Prisma.DbNull : (row.by_type as Prisma.InputJsonValue),
        source: row.source,
        publishedOn: row.date === undefined ? null : new Date(`${row.date}T00:00:00Z`),
      };
      await tx.reportedResult.upsert({
        where: { releaseId_name_track_split: { releaseId: release.id, name: row.name, track: row.track, split: row.split } },
        create: { releaseId: release.id, name: row.name, track: row.track, split: row.split, ...data },
        update: data,
      });
      const before = existing.find((stored) => stored.name === row.name && stored.track === row.track && stored.split === row.split);
      const after = { name: row.name, track: row.track, split: row.split, metrics: row.metrics, byType: row.by_type ?? null, source: row.source, publishedOn: data.publishedOn };
      if (before === undefined) changes.push({ kind: "reported.added", row: after });
      else if (!isSameReported(before, after)) changes.push({ kind: "reported.edited", row: after, before });
    }
    // What readers see changed: the public log (docs/public-log.md), one record per row added, edited or removed.
    for (const change of changes) await logReportedChange(tx, release, change);
  });
  const updated = file.results.filter((row) => existingKeys.has(`${row.name}\u0000${row.track}\u0000${row.split}`)).length;
  return {
    release: { id: release.id, name: release.name, version: release.version },
    created: file.results.length - updated,
    updated,
    removed,
    warnings,
  };
}
