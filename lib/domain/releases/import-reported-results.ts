import "server-only";
import { ENTITY_TYPES } from "@/lib/core/dataset/release-schema";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import { Prisma } from "@/lib/platform/generated/prisma";
import { readReleaseStats, type ReleaseStats } from "@/lib/core/dataset/release-json";
import { findReleaseFor, parseReportedFile, type ReportedFile } from "@/lib/core/dataset/reported-schema";

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
    select: { name: true, track: true, split: true },
  });
  const existingKeys = new Set(existing.map((row) => `${row.name}\u0000${row.track}\u0000${row.split}`));
  const fileKeys = new Set(file.results.map((row) => `${row.name}\u0000${row.track}\u0000${row.split}`));

  const writes: Prisma.PrismaPromise<unknown>[] = [];
  let removed = 0;
  if (options.replace) {
    removed = [...existingKeys].filter((key) => !fileKeys.has(key)).length;
    writes.push(db.reportedResult.deleteMany({ where: { releaseId: release.id } }));
  }
  for (const row of file.results) {
    const data = {
      metrics: row.metrics as Prisma.InputJsonValue,
      byType: row.by_type === undefined ? Prisma.DbNull : (row.by_type as Prisma.InputJsonValue),
      source: row.source,
      publishedOn: row.date === undefined ? null : new Date(`${row.date}T00:00:00Z`),
    };
    writes.push(
      db.reportedResult.upsert({
        where: { releaseId_name_track_split: { releaseId: release.id, name: row.name, track: row.track, split: row.split } },
        create: { releaseId: release.id, name: row.name, track: row.track, split: row.split, ...data },
        update: data,
      }),
    );
  }
  await db.$transaction(writes);

  const updated = file.results.filter((row) => existingKeys.has(`${row.name}\u0000${row.track}\u0000${row.split}`)).length;
  return {
    release: { id: release.id, name: release.name, version: release.version },
    created: file.results.length - updated,
    updated,
    removed,
    warnings,
  };
}
