import "server-only";
import type { Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { forgetPublicReadStamp } from "@/lib/domain/leaderboard/get-leaderboard";
import { AppError } from "@/lib/core/errors";
import { findOwnedSubmission } from "@/lib/domain/submissions/find-owned-submission";
import { recordAudit } from "@/lib/platform/audit/record-audit";
import { logEntryChange } from "@/lib/domain/public-log/log-entry-change";

/**
 * The owner hides their published entry from the leaderboard, or shows again
 * an entry they hid themselves. An entry a maintainer hid stays hidden until a
 * maintainer approves it again. Each change is recorded in the audit log.
 */
export async function setEntryHidden(actor: Actor, submissionId: string, isHidden: boolean): Promise<{ publication: "PUBLISHED" | "HIDDEN" }> {
  const { owner, submission } = await findOwnedSubmission(actor, submissionId);
  if (isHidden) {
    if (submission.publication !== "PUBLISHED") throw new AppError("conflict", "Only a published entry can be hidden.");
  } else {
    if (submission.publication !== "HIDDEN") throw new AppError("conflict", "This entry is not hidden.");
    if (!submission.hiddenByOwner) {
      throw new AppError("forbidden", "A maintainer hid this entry; only a maintainer can publish it again (see the maintainer's note).");
    }
  }
  const from = submission.publication;
  const to = isHidden ? "HIDDEN" : "PUBLISHED";
  const changed = await db.$transaction(async (tx) => {
    const { count } = await tx.submission.updateMany({
      where: { id: submissionId, publication: from, hiddenByOwner: submission.hiddenByOwner },
      data: { publication: to, hiddenByOwner: isHidden },
    });
    if (count === 0) return false;
    await recordAudit(tx, {
        actorId: owner.userId,
        action: isHidden ? "submission.owner-hide" : "submission.owner-unhide",
        targetType: "Submission",
        targetId: submissionId,
        details: { from: { publication: from }, to: { publication: to } },
      });
    await logEntryChange(tx, { kind: isHidden ? "entry.hidden" : "entry.unhidden", submissionId, by: "owner" });
    return true;
  });
  if (!changed) throw new AppError("conflict", "The entry changed just now; reload the page and try again.");
  forgetPublicReadStamp();
  return { publication: to };
}
