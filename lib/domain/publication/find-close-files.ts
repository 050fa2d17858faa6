import "server-only";
import { db } from "@/lib/platform/db";
import type { Track } from "@/lib/platform/generated/prisma";
import { logger } from "@/lib/platform/logger";
import { countDifferences, publicationThresholds } from "@/lib/core/integrity/answer-digests";
import type { ReleaseFamily } from "@/lib/domain/submissions/find-account-entries";
import { DIGEST_ROW_SELECT, loadAnswerDigests, testPositionMap, type DigestRow } from "@/lib/domain/scoring/load-answer-digests";
import { loadTestLayout } from "@/lib/domain/publication/load-test-layout";

/** A test file of another account whose answers are the same as the request's in all but a few samples. */
export type CloseFile = {
  id: string;
  ownerName: string;
  system: string;
  track: Track;
  releaseVersion: string;
  isBaseline: boolean;
  /** Test samples whose answers differ (the unified answer key). */
  differing: number;
  createdAt: string;
};

type CloseFiles = {
  files: CloseFile[];
  /** The most samples two files may differ in and still be listed, plus one: the guard's ceil(max(25, 1% of the test split) / (1 - f)). */
  required: number;
  /** Files that could not be read to compare (shown as a count, so the list's silence is not taken for a clean bill). */
  uncompared: number;
};

/**
 * For the maintainer's review (protocol §12): every test file of another
 * account, on any track and version of the release name and in any state
 * but one the worker found invalid (uploads never asked to be published
 * included), whose answers by the unified answer key (answer-digests.ts)
 * differ from the request's within the publication guard's own overall
 * distance (publicationThresholds): a copied file, or a second account of
 * the same person, whose publication beside this one could read the test
 * split. Nothing here reads the gold. Each comparison stops as soon as the files are far apart, so a
 * scan of many files is cheap once their digests are stored.
 */
export async function findCloseFiles(request: DigestRow & { userId: string }, family: ReleaseFamily): Promise<CloseFiles> {
  const [digests, layout, release] = await Promise.all([
    loadAnswerDigests(request),
    loadTestLayout(request.releaseId),
    db.datasetRelease.findUniqueOrThrow({ where: { id: request.releaseId }, select: { minGroupN: true, feedbackFraction: true } }),
  ]);
  const required = publicationThresholds({ testSamples: layout.sampleIds.length, ...release }).overall;
  if (digests === null) return { files: [], required, uncompared: 0 };
  const candidates = await db.submission.findMany({
    where: {
      split: "test",
      releaseId: { in: family.releaseIds },
      userId: { not: request.userId },
      OR: [{ failureKind: null }, { failureKind: { not: "INVALID" } }],
    },
    orderBy: { createdAt: "asc" },
    select: { ...DIGEST_ROW_SELECT, isBaseline: true, baselineLabel: true, systemName: true, originalName: true, createdAt: true, user: { select: { displayName: true } } },
  });
  const files: CloseFile[] = [];
  let uncompared = 0;
  for (const candidate of candidates) {
    const other = await loadAnswerDigests(candidate).catch((error: unknown) => {
      logger.warn({ err: error, submissionId: candidate.id }, "review: could not compare a stored test file");
      return undefined;
    });
    if (other === undefined) uncompared += 1;
    if (!other) continue;
    const { differing } = countDifferences({
      digests,
      other,
      otherPositionOf: await testPositionMap(request.releaseId, candidate.releaseId),
      collections: layout.collections,
      stopAbove: required - 1,
    });
    if (differing >= required) continue;
    files.push({
      id: candidate.id,
      ownerName: candidate.user.displayName,
      system: candidate.baselineLabel ?? candidate.systemName ?? candidate.originalName,
      track: candidate.track,
      releaseVersion: family.versionOf.get(candidate.releaseId) ?? "",
      isBaseline: candidate.isBaseline,
      differing,
      createdAt: candidate.createdAt.toISOString(),
    });
  }
  return { files, required, uncompared };
}
