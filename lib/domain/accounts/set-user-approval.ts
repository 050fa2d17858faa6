import "server-only";
import { requireMaintainer, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import { parseRecordId } from "@/lib/core/text";
import { recordAudit } from "@/lib/platform/audit/record-audit";

type SetUserApprovalOptions = {
  actor: Actor;
  userId: string;
  isApproved: boolean;
  reason?: string;
};

type ApprovalChange = { userId: string; approvedAt: Date | null; isChanged: boolean };

/**
 * Approves an account for test submissions (needed on releases of 1,000 test samples or more by default: lib/domain/accounts/test-approval.ts), or
 * takes the approval back, and records it in the audit log. Approving an
 * approved account keeps its first approval date.
 */
export async function setUserApproval(options: SetUserApprovalOptions): Promise<ApprovalChange> {
  const actorId = requireMaintainer(options.actor).userId;
  const reason = options.reason?.trim() || null;

  return db.$transaction(async (tx) => {
    const target = await tx.user.findUnique({ where: { id: parseRecordId(options.userId, "user") }, select: { id: true, isSystem: true, approvedAt: true } });
    if (!target) throw new AppError("not_found", "No such user.");
    if (target.isSystem) throw new AppError("forbidden", "The system account is always approved.");
    const isApproved = target.approvedAt !== null;
    if (isApproved === options.isApproved) return { userId: target.id, approvedAt: target.approvedAt, isChanged: false };

    const approvedAt = options.isApproved ? new Date() : null;
    await tx.user.update({ where: { id: target.id }, data: { approvedAt } });
    await recordAudit(tx, {
        actorId,
        action: options.isApproved ? "user.approved" : "user.approval_revoked",
        targetType: "User",
        targetId: target.id,
        reason,
        details: { approvedAt: approvedAt?.toISOString() ?? null, previous: target.approvedAt?.toISOString() ?? null },
      });
    return { userId: target.id, approvedAt, isChanged: true };
  });
}
