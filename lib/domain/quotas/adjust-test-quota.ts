import "server-only";
import { requireMaintainer, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import { getActiveRelease } from "@/lib/domain/releases/get-release";
import { grantTestQuota, refundTestQuota } from "@/lib/domain/quotas/quota-ledger";
import type { QuotaAdjustment } from "@/lib/core/accounts/user-schemas";
import { parseRecordId } from "@/lib/core/text";
import { recordAudit } from "@/lib/platform/audit/record-audit";

type AdjustTestQuotaOptions = { actor: Actor; userId: string; adjustment: QuotaAdjustment };

type QuotaAdjusted = { userId: string; releaseId: string; action: "grant" | "refund"; amount: number; submissionId: string | null };

/**
 * A maintainer grants a participant extra test submissions on the active
 * release, or refunds one of their test submissions, with a reason the
 * participant reads on their ledger. Both land in the audit log in the same
 * transaction as the ledger row. Refunding a submission that was never
 * charged (a dev file, a baseline) or is refunded already is a 409.
 */
export async function adjustTestQuota(options: AdjustTestQuotaOptions): Promise<QuotaAdjusted> {
  const actorId = requireMaintainer(options.actor).userId;
  const userId = parseRecordId(options.userId, "user");
  const { adjustment } = options;
  return db.$transaction(async (tx) => {
    const target = await tx.user.findUnique({ where: { id: userId }, select: { id: true, isSystem: true } });
    if (!target) throw new AppError("not_found", "No such user.");
    if (target.isSystem) throw new AppError("forbidden", "The system account has no test quota.");

    if (adjustment.action === "grant") {
      const release = await getActiveRelease();
      const grant = await grantTestQuota({ userId, releaseId: release.id, amount: adjustment.amount, reason: adjustment.reason, actorId }, tx);
      await recordAudit(tx, {
          actorId,
          action: "quota.granted",
          targetType: "User",
          targetId: userId,
          reason: adjustment.reason,
          details: { releaseId: release.id, amount: adjustment.amount, ledgerEntryId: grant.id },
        });
      return { userId, releaseId: release.id, action: "grant", amount: adjustment.amount, submissionId: null };
    }

    const submissionId = parseRecordId(adjustment.submissionId, "submission");
    const submission = await tx.submission.findUnique({ where: { id: submissionId }, select: { userId: true, releaseId: true } });
    if (!submission || submission.userId !== userId) throw new AppError("not_found", "This participant has no such submission.");
    const outcome = await refundTestQuota({ submissionId, reason: adjustment.reason, actorId }, tx);
    if (outcome === "not_charged") throw new AppError("conflict", "This submission was never charged to the test quota, so there is nothing to refund.");
    if (outcome === "already_refunded") throw new AppError("conflict", "This submission's test quota was refunded already.");
    await recordAudit(tx, {
        actorId,
        action: "quota.refunded",
        targetType: "Submission",
        targetId: submissionId,
        reason: adjustment.reason,
        details: { userId, releaseId: submission.releaseId },
      });
    return { userId, releaseId: submission.releaseId, action: "refund", amount: 1, submissionId };
  });
}
