import "server-only";
import type { Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import { findOwnedSubmission } from "@/lib/domain/submissions/find-owned-submission";
import { recordAudit } from "@/lib/platform/audit/record-audit";

/**
 * The owner takes back a publication request that no maintainer has reviewed
 * yet: the submission is private again (its metadata is kept, so asking again
 * starts from it). Its `requestedAt` stays: the publication guard compares
 * later requests of the account with every file that was ever up for
 * publication (protocol §12, find-account-entries.ts EVER_REQUESTED).
 * Recorded in the audit log.
 */
export async function withdrawPublicationRequest(actor: Actor, submissionId: string): Promise<void> {
  const { owner, submission } = await findOwnedSubmission(actor, submissionId);
  if (submission.publication !== "PENDING") {
    throw new AppError("conflict", "Only a pending publication request can be withdrawn; this submission has none.");
  }
  // The condition on PENDING makes a review that lands at the same moment win: then nothing is withdrawn.
  const changed = await db.$transaction(async (tx) => {
    const { count } = await tx.submission.updateMany({
      where: { id: submissionId, publication: "PENDING" },
      data: { publication: "PRIVATE", isPrimary: false },
    });
    if (count === 0) return false;
    await recordAudit(tx, { actorId: owner.userId, action: "submission.withdraw", targetType: "Submission", targetId: submissionId, details: { from: { publication: "PENDING" } } });
    return true;
  });
  if (!changed) throw new AppError("conflict", "A maintainer reviewed the request just now; reload the page to see the decision.");
}
