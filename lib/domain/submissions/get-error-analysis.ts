import "server-only";
import { isMaintainer, requireOwnerOrMaintainer, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { discloseErrorClasses, mayDiscloseErrorClasses } from "@/lib/core/disclosure/disclose-error-classes";
import { AppError } from "@/lib/core/errors";
import { perturbationOf } from "@/lib/domain/scoring/public-disclosure";
import { currentSampleAnalysis } from "@/lib/domain/scoring/sample-analysis";
import type { ErrorAnalysis } from "@/lib/core/submissions/sample-schemas";

const TEST_ANALYSIS_WITHHELD =
  "Error classes of a test submission are shown to its owner after publication only, as overall shares on the ranking slice (protocol section 12); per-sample outcomes of the test split are never shown.";

/**
 * The error classes of a scored submission, as lib/core/disclosure lets the asker
 * see them (lib/core/disclosure/disclose-error-classes.ts): on dev everything; on
 * test the owner's overall shares on the ranking slice after publication, a
 * maintainer's on the whole split, and otherwise a not_found that says why.
 */
export async function getErrorAnalysis(actor: Actor, submissionId: string): Promise<ErrorAnalysis> {
  const submission = await db.submission.findUnique({
    where: { id: submissionId },
    select: {
      id: true,
      userId: true,
      releaseId: true,
      split: true,
      track: true,
      status: true,
      publication: true,
      fileSha256: true,
      score: { select: { computedAt: true, goldSha256: true } },
      release: { select: { name: true } },
    },
  });
  if (!submission) throw new AppError("not_found", "Not found.");
  const viewer = requireOwnerOrMaintainer(actor, submission.userId);
  if (submission.status !== "SCORED" || !submission.score) throw new AppError("not_found", "This submission has no scores yet.");
  const asker = { split: submission.split, isOwner: viewer.userId === submission.userId, isMaintainer: isMaintainer(viewer), isPublished: submission.publication === "PUBLISHED" };
  // Decide before any work: the owner of an unpublished test file gets nothing.
  if (!mayDiscloseErrorClasses(asker)) throw new AppError("not_found", TEST_ANALYSIS_WITHHELD);
  const { summary } = await currentSampleAnalysis(submission);
  const perturbation = submission.split === "test" ? perturbationOf(submission.release.name, submission.score.goldSha256, submission.id) : null;
  const disclosed = discloseErrorClasses(submission.id, summary, summary.rankingSlice, asker, perturbation);
  if (disclosed === null) throw new AppError("not_found", TEST_ANALYSIS_WITHHELD);
  return disclosed;
}
