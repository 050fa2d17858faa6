import "server-only";
import { DEFAULT_FEEDBACK_FRACTION, DEFAULT_MAX_ENTRIES_PER_ACCOUNT, DEFAULT_MIN_GROUP_N } from "@/lib/core/disclosure/disclose";
import { readRelease, type LeakageFinding, type LoadedRelease } from "@/lib/platform/io/read-release";
import { SPLITS } from "@/lib/core/dataset/release-schema";
import { db } from "@/lib/platform/db";
import { z } from "zod";
import { AppError, isAppError } from "@/lib/core/errors";
import type { Prisma } from "@/lib/platform/generated/prisma";
import { toDbEntityType } from "@/lib/domain/releases/entity-type";
import { isUniqueViolation } from "@/lib/domain/accounts/is-unique-violation";
import { runBaselines, type BaselineRunResult } from "@/lib/domain/scoring/run-baselines";
import { appendPublicLog } from "@/lib/domain/public-log/append-public-log";
import {
  computeDownloadDigests,
  computeGoldSha256,
  computeReleaseStats,
  type ReleaseStats,
} from "@/lib/core/dataset/release-summary";

/**
 * queueBaselines: also compute the platform's baselines of a newly imported
 * release and queue them for scoring; the import then either ends with them
 * queued or is undone (see rollBackImport).
 */
type ImportReleaseOptions = { dir: string; activate: boolean; queueBaselines?: boolean };

export type ImportReleaseResult = {
  releaseId: string;
  name: string;
  version: string;
  outcome: "imported" | "unchanged";
  isActive: boolean;
  stats: ReleaseStats;
  leakage: LeakageFinding[];
  /** With queueBaselines, the release's baselines: queued now ("created") or found ("existing"); empty otherwise. */
  baselines: BaselineRunResult[];
};

/** At most this many leakage findings are stored with the release; the count is always kept. */
const STORED_LEAKAGE_LIMIT = 1000;
const INSERT_CHUNK = 5000;
const IMPORT_TIMEOUT_MS = 10 * 60 * 1000;

/** DatasetRelease.files: the SHA-256 of each imported file, to tell a re-import of the same files. */
const storedFilesSchema = z.record(z.string(), z.object({ sha256: z.string().optional() }).loose());

function sameFiles(stored: Prisma.JsonValue, loaded: LoadedRelease["files"]): string[] {
  const storedFiles = storedFilesSchema.parse(stored ?? {});
  return Object.keys(loaded).filter((file) => storedFiles[file]?.sha256 !== loaded[file]?.sha256);
}

async function activateRelease(tx: Prisma.TransactionClient, releaseId: string, why = "activated"): Promise<void> {
  const previous = await tx.datasetRelease.findFirst({ where: { isActive: true, NOT: { id: releaseId } }, select: { name: true, version: true } });
  await tx.datasetRelease.updateMany({ where: { isActive: true, NOT: { id: releaseId } }, data: { isActive: false } });
  const release = await tx.datasetRelease.update({ where: { id: releaseId }, data: { isActive: true }, select: { id: true, name: true, version: true } });
  // The leaderboard's default release changed: the public log says so (docs/public-log.md).
  await appendPublicLog(tx, {
    kind: "release.activated",
    release,
    summary: `Release ${release.name} ${release.version} ${why}: the leaderboard shows it${previous ? ` instead of ${previous.name} ${previous.version}` : ""}`,
    data: { previous: previous ? `${previous.name}@${previous.version}` : "" },
  });
}

/**
 * Imports a release directory (protocol section 2) in one transaction: either
 * everything is written or nothing is. With queueBaselines, a new release is
 * kept only once its baselines are queued. Re-importing identical files
 * changes nothing; a new version is added beside the old one and becomes
 * active only when asked.
 */
// eslint-disable-next-line max-lines-per-function -- one transaction's steps in order: the release, its entities, samples and baselines
export async function importRelease(options: ImportReleaseOptions): Promise<ImportReleaseResult> {
  const read = await readRelease(options.dir);
  if (!read.ok) {
    throw new AppError("validation", `The release in ${options.dir} was rejected: ${read.problems.length} problem(s).`, {
      problems: read.problems,
    });
  }
  const { release, leakage } = read;
  const stats = computeReleaseStats(release.entities, release.samples);

  const existing = await db.datasetRelease.findUnique({
    where: { name_version: { name: release.meta.name, version: release.meta.version } },
  });
  if (existing) {
    const changed = sameFiles(existing.files, release.files);
    if (changed.length > 0) {
      throw new AppError(
        "conflict",
        `Release ${release.meta.name} ${release.meta.version} is already imported with different content (${changed.join(", ")} differ). Give the new release a new version in dataset.json.`,
      );
    }
    if (options.activate && !existing.isActive) {
      await db.$transaction((tx) => activateRelease(tx, existing.id));
    }
    return {
      releaseId: existing.id,
      name: existing.name,
      version: existing.version,
      outcome: "unchanged",
      isActive: options.activate || existing.isActive,
      stats,
      leakage,
      baselines: options.queueBaselines ? await queueMissingBaselines(existing.id, release) : [],
    };
  }

  const feedbackFraction = release.meta.feedback_fraction ?? DEFAULT_FEEDBACK_FRACTION;
  await assertSameFeedbackFraction(release.meta.name, release.meta.version, feedbackFraction);
  const sliceFamily = release.meta.slice_family ?? release.meta.name;
  await assertSliceFamilyOwnsItsEntities(release.meta.name, sliceFamily, release.samples.test.map((sample) => sample.qid));
  const goldSha256 = Object.fromEntries(SPLITS.map((split) => [split, computeGoldSha256(release.samples[split])]));
  const downloads = computeDownloadDigests(release.entities, release.samples);
  const previousActive = await db.datasetRelease.findFirst({ where: { isActive: true }, select: { id: true } });
  const makeActive = options.activate || previousActive === null;

  let releaseId: string;
  try {
    releaseId = await db.$transaction(
      async (tx) => {
        const created = await tx.datasetRelease.create({
          data: {
            name: release.meta.name,
            version: release.meta.version,
            description: release.meta.description,
            minGroupN: release.meta.min_group_n ?? DEFAULT_MIN_GROUP_N,
            feedbackFraction,
            sliceFamily,
            maxEntriesPerAccount: release.meta.max_entries_per_account ?? DEFAULT_MAX_ENTRIES_PER_ACCOUNT,
            files: release.files,
            goldSha256,
            downloads,
            stats,
            leakage: { count: leakage.length, findings: leakage.slice(0, STORED_LEAKAGE_LIMIT) },
          },
        });
        await insertEntities(tx, created.id, release);
        await insertSamples(tx, created.id, release);
        if (makeActive) await activateRelease(tx, created.id);
        return created.id;
      },
      { timeout: IMPORT_TIMEOUT_MS, maxWait: 30_000 },
    );
  } catch (error) {
    // Validation rules out duplicate qids and ids, so the one unique key left is (name, version):
    // another import of this version committed first, and nothing of this one was written.
    if (!isUniqueViolation(error)) throw error;
    throw new AppError(
      "conflict",
      `Release ${release.meta.name} ${release.meta.version} was imported by another process at the same time; this import wrote nothing. Run it again to check that the stored release has the same content.`,
    );
  }

  let baselines: BaselineRunResult[] = [];
  if (options.queueBaselines) baselines = await queueBaselinesOrRollBack(releaseId, makeActive ? (previousActive?.id ?? null) : undefined, release);
  else await analyzeImportedTables();

  return {
    releaseId,
    name: release.meta.name,
    version: release.meta.version,
    outcome: "imported",
    isActive: makeActive,
    stats,
    leakage,
    baselines,
  };
}

/**
 * Protocol §12 (v1.3): a test split that shares an entity with another slice family's test split must
 * keep that family's slices (`slice_family` in dataset.json), or the shared entities would be sliced twice.
 */
async function assertSliceFamilyOwnsItsEntities(name: string, sliceFamily: string, testQids: readonly string[]): Promise<void> {
  const shared = await db.sample.findFirst({
    where: { split: "test", entity: { qid: { in: [...new Set(testQids)] } }, release: { sliceFamily: { not: sliceFamily } } },
    select: { entity: { select: { qid: true } }, release: { select: { name: true, version: true, sliceFamily: true } } },
  });
  if (shared === null) return;
  throw new AppError(
    "validation",
    `dataset.json: the test split of ${name} shares the entity ${shared.entity.qid} with the test split of ${shared.release.name} ${shared.release.version}, whose slices are keyed by "${shared.release.sliceFamily}" (protocol §12). Set "slice_family": "${shared.release.sliceFamily}" in dataset.json, or remove the shared entities.`,
  );
}

/**
 * Protocol §12: `feedback_fraction` does not change within a release name.
 * Membership is keyed by the name, so a sample keeps its slice across
 * versions only while the fraction stays: another fraction would move
 * feedback samples, which participants have probed, into the ranking slice
 * (or the reverse). A new version with another fraction is refused, naming
 * the earlier version and both values.
 */
async function assertSameFeedbackFraction(name: string, version: string, feedbackFraction: number): Promise<void> {
  const earlier = await db.datasetRelease.findFirst({
    where: { name, feedbackFraction: { not: feedbackFraction } },
    orderBy: { importedAt: "asc" },
    select: { version: true, feedbackFraction: true },
  });
  if (earlier === null) return;
  throw new AppError(
    "conflict",
    `dataset.json: feedback_fraction is ${feedbackFraction} in ${name} ${version}, but the earlier version ${name} ${earlier.version} has ${earlier.feedbackFraction}; it may not change within a release name (protocol §12: the slices would reshuffle). Keep ${earlier.feedbackFraction}, or give the release a new name.`,
  );
}

/**
 * Refreshes the planner's statistics of the tables the import just filled.
 * Autovacuum would do it eventually, but the queries that run next (the
 * baselines' pre-flight reads the release's known-split entities through
 * "Sample"."entityId") were planned on the row counts from before the import:
 * with two releases already stored, a third one's query took minutes.
 */
async function analyzeImportedTables(): Promise<void> {
  await db.$executeRawUnsafe(`ANALYZE "DatasetRelease", "Entity", "Sample"`);
}

/**
 * Queues the baselines of a release that was just committed. Should that fail
 * (Redis down, the file store refusing), the release is deleted again and the
 * previously active release, if this import deactivated one, is active again:
 * a release is never left imported without its baselines. `restoreActiveId`
 * is undefined when this import did not change which release is active.
 */
async function queueBaselinesOrRollBack(
  releaseId: string,
  restoreActiveId: string | null | undefined,
  release: LoadedRelease,
): Promise<BaselineRunResult[]> {
  let failure: unknown;
  try {
    await analyzeImportedTables();
    const baselines = await runBaselines(releaseId);
    if (release.samples.test.length === 0 || baselines.some((baseline) => baseline.split === "test")) return baselines;
    failure = new Error("no baseline of the test split was queued");
  } catch (error) {
    failure = error;
  }
  await rollBackImport(releaseId, restoreActiveId);
  const reason = failure instanceof Error ? failure.message : String(failure);
  throw new AppError(
    isAppError(failure) ? failure.code : "internal",
    `Release ${release.meta.name} ${release.meta.version} was not imported: its baselines could not be queued (${reason}). The import was rolled back; nothing of this release is kept. Fix the cause and run the import again.`,
  );
}

/**
 * An unchanged re-import with queueBaselines: the release was committed
 * before, but an import that died between its commit and its baselines left
 * it without them. The baseline step is idempotent (runBaselines queues only
 * the missing ones), so it runs again; the release is kept whatever happens
 * (participants may have used it), and a failure says how to finish.
 */
async function queueMissingBaselines(releaseId: string, release: LoadedRelease): Promise<BaselineRunResult[]> {
  try {
    await analyzeImportedTables();
    return await runBaselines(releaseId);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new AppError(
      isAppError(error) ? error.code : "internal",
      `Release ${release.meta.name} ${release.meta.version} is imported, but its baselines could not be queued (${reason}). Fix the cause and run the import again (or npm run baselines).`,
    );
  }
}

/** Deletes a just-imported release (its entities, samples and any baseline submissions cascade) and restores the active one. */
async function rollBackImport(releaseId: string, restoreActiveId: string | null | undefined): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.datasetRelease.delete({ where: { id: releaseId } });
    if (restoreActiveId) await activateRelease(tx, restoreActiveId, "activated again (the import that replaced it was rolled back)");
  });
}

async function insertEntities(tx: Prisma.TransactionClient, releaseId: string, release: LoadedRelease): Promise<void> {
  for (let start = 0; start < release.entities.length; start += INSERT_CHUNK) {
    const chunk = release.entities.slice(start, start + INSERT_CHUNK);
    await tx.entity.createMany({
      data: chunk.map((entity, index) => ({
        releaseId,
        qid: entity.qid,
        name: entity.name,
        type: toDbEntityType(entity.type),
        aliases: entity.aliases,
        description: entity.description,
        descriptionWiki: entity.description_wiki,
        ordinal: start + index + 1,
      })),
    });
  }
}

async function insertSamples(tx: Prisma.TransactionClient, releaseId: string, release: LoadedRelease): Promise<void> {
  const rows = await tx.entity.findMany({ where: { releaseId }, select: { id: true, qid: true } });
  const entityIdByQid = new Map(rows.map((row) => [row.qid, row.id]));
  for (const split of SPLITS) {
    const samples = release.samples[split];
    for (let start = 0; start < samples.length; start += INSERT_CHUNK) {
      const chunk = samples.slice(start, start + INSERT_CHUNK);
      await tx.sample.createMany({
        data: chunk.map((sample, index) => {
          const entityId = entityIdByQid.get(sample.qid);
          if (entityId === undefined) throw new Error(`sample ${sample.id}: entity ${sample.qid} was not inserted`);
          return {
            releaseId,
            sampleId: sample.id,
            split,
            collection: sample.collection,
            implicitText: sample.implicit_text,
            explicitText: sample.explicit_text,
            entityId,
            ordinal: start + index + 1,
          };
        }),
      });
    }
  }
}
