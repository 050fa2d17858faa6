import "server-only";
import { z } from "zod";
import { isMaintainer, requireOwnerOrMaintainer, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { discloseErrorClasses } from "@/lib/disclosure/disclose-error-classes";
import { AppError } from "@/lib/errors";
import type { ErrorClassSummary } from "@/lib/scoring/error-taxonomy";
import { currentSampleAnalysis } from "@/lib/submissions/sample-analysis";
import type { ErrorAnalysis } from "./schemas";

const countsSchema = z.record(z.string(), z.number().int());
const storedSummarySchema = z.object({
  track: z.enum(["open", "closed"]),
  n: z.number().int(),
  counts: countsSchema,
  byType: z.record(z.string(), z.object({ n: z.number().int(), counts: countsSchema })),
  confusion: z.record(z.string(), countsSchema),
});

const TEST_ANALYSIS_WITHHELD =
  "Error classes of a test submission are shown to its owner after publication only, as overall shares (protocol section 12); per-sample outcomes of the test split are never shown.";

/**
 * The error classes of a scored submission, as lib/disclosure lets the asker
 * see them: on dev everything; on test the owner's overall shares after
 * publication, and otherwise a not_found that says why.
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
      score: { select: { computedAt: true } },
    },
  });
  if (!submission) throw new AppError("not_found", "Not found.");
  const viewer = requireOwnerOrMaintainer(actor, submission.userId);
  if (submission.status !== "SCORED" || !submission.score) throw new AppError("not_found", "This submission has no scores yet.");
  const asker = { split: submission.split, isOwner: viewer.userId === submission.userId, isMaintainer: isMaintainer(viewer), isPublished: submission.publication === "PUBLISHED" };
  // Decide before any work on the test split: an unpublished test file gets nothing.
  if (submission.split === "test" && !(asker.isPublished && (asker.isOwner || asker.isMaintainer))) throw new AppError("not_found", TEST_ANALYSIS_WITHHELD);
  const summary = storedSummarySchema.parse((await currentSampleAnalysis(submission)).summary) as ErrorClassSummary;
  const disclosed = discloseErrorClasses(submission.id, summary, asker);
  if (disclosed === null) throw new AppError("not_found", TEST_ANALYSIS_WITHHELD);
  return disclosed;
}
