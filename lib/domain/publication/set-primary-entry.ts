import "server-only";
import type { Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { forgetPublicReadStamp } from "@/lib/domain/leaderboard/get-leaderboard";
import { AppError } from "@/lib/core/errors";
import { findOwnedSubmission } from "@/lib/domain/submissions/find-owned-submission";
import { recordAudit } from "@/lib/platform/audit/record-audit";

/**
 * The owner marks one test submission per track as their primary entry (or
 * unmarks it). The leaderboard's default view shows only the primary entry
 * of an owner who chose one (lib/core/leaderboard/primary-entries.ts). Marking one
 * unmarks the owner's other submission of the same release and track, under a
 * lock on the owner's row so two requests cannot leave two primaries.
 */
export async function setPrimaryEntry(actor: Actor, submissionId: string, isPrimary: boolean): Promise<{ isPrimary: boolean; replaced: string | null }> {
  const { owner, submission } = await findOwnedSubmission(actor, submissionId);
  if (isPrimary) {
    if (submission.split !== "test" || submission.isBaseline) throw new AppError("validation", "Only your own test entries can be a primary entry.");
    if (submission.publication !== "PUBLISHED" && submission.publication !== "PENDING") {
      throw new AppError("conflict", "Only a published entry, or one whose publication you requested, can be your primary entry.");
    }
  }
  const result = await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM "User" WHERE "id" = ${owner.userId} FOR UPDATE`;
    const previous = isPrimary
      ? await tx.submission.findFirst({
          where: { userId: owner.userId, releaseId: submission.releaseId, track: submission.track, isPrimary: true, id: { not: submissionId } },
          select: { id: true },
        })
      : null;
    if (previous) await tx.submission.update({ where: { id: previous.id }, data: { isPrimary: false } });
    await tx.submission.update({ where: { id: submissionId }, data: { isPrimary } });
    await recordAudit(tx, {
        actorId: owner.userId,
        action: isPrimary ? "submission.set-primary" : "submission.unset-primary",
        targetType: "Submission",
        targetId: submissionId,
        details: { track: submission.track, ...(previous ? { replaced: previous.id } : {}) },
      });
    return { isPrimary, replaced: previous?.id ?? null };
  });
  forgetPublicReadStamp();
  return result;
}
