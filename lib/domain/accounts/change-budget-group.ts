import "server-only";
import { requireMaintainer, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import type { Prisma } from "@/lib/platform/generated/prisma";
import type { BudgetGroupChange } from "@/lib/core/accounts/user-schemas";
import { parseRecordId } from "@/lib/core/text";
import { recordAudit } from "@/lib/platform/audit/record-audit";
import { isApprovedUser } from "@/lib/domain/accounts/test-approval";

type ChangeBudgetGroupOptions = { actor: Actor; userId: string; change: BudgetGroupChange };

/** The accounts that share the entries budget after the change (the account alone: none). */
type BudgetGroupChanged = { userId: string; budgetGroupId: string | null; members: { id: string; displayName: string; email: string }[]; isChanged: boolean };

const USER_SELECT = { id: true, displayName: true, email: true, role: true, isSystem: true, approvedAt: true, budgetGroupId: true } as const;

/**
 * Protocol §12: approved accounts a maintainer knows to be one person or one
 * lab share one entries budget (`max_entries_per_account` per track and
 * release name, counted over the group: find-account-entries.ts). "link"
 * puts the account and the one named (email or id) in one group: a new one,
 * the group either is in, or both groups merged. "unlink" takes the account
 * out (a group left with one member is dissolved). Both accounts must be
 * approved participants; every change is in the audit log with its reason.
 * Entries already published stay; the shared cap binds the next request.
 */
export async function changeBudgetGroup(options: ChangeBudgetGroupOptions): Promise<BudgetGroupChanged> {
  const actorId = requireMaintainer(options.actor).userId;
  const userId = parseRecordId(options.userId, "user");
  const { change } = options;
  return db.$transaction(async (tx) => {
    const target = await tx.user.findUnique({ where: { id: userId }, select: USER_SELECT });
    if (!target) throw new AppError("not_found", "No such user.");
    if (target.isSystem) throw new AppError("forbidden", "The system account has no entries budget.");

    if (change.action === "unlink") {
      if (target.budgetGroupId === null) return { userId, budgetGroupId: null, members: [], isChanged: false };
      const groupId = target.budgetGroupId;
      await tx.user.update({ where: { id: userId }, data: { budgetGroupId: null } });
      const left = await tx.user.findMany({ where: { budgetGroupId: groupId }, select: { id: true } });
      if (left.length <= 1) await tx.budgetGroup.delete({ where: { id: groupId } });
      await recordAudit(tx, { actorId, action: "user.budget-unlinked", targetType: "User", targetId: userId, reason: change.reason, details: { budgetGroupId: groupId, dissolved: left.length <= 1 } });
      return { userId, budgetGroupId: null, members: [], isChanged: true };
    }

    const other = await tx.user.findFirst({
      where: change.account.includes("@") ? { email: { equals: change.account, mode: "insensitive" } } : { id: change.account },
      select: USER_SELECT,
    });
    if (!other || other.isSystem) throw new AppError("not_found", `No account is ${change.account}.`);
    if (other.id === userId) throw new AppError("validation", "Name another account: an account always shares its budget with itself.");
    for (const user of [target, other]) {
      if (!isApprovedUser(user) || user.role === "MAINTAINER") {
        throw new AppError("validation", `${user.displayName} (${user.email}) is not an approved participant: only approved participants' accounts share an entries budget (protocol §12).`);
      }
    }
    if (target.budgetGroupId !== null && target.budgetGroupId === other.budgetGroupId) {
      return { userId, budgetGroupId: target.budgetGroupId, members: await membersOf(tx, target.budgetGroupId), isChanged: false };
    }
    const groupId = target.budgetGroupId ?? other.budgetGroupId ?? (await tx.budgetGroup.create({ data: {}, select: { id: true } })).id;
    // Merging two groups: every member of the other group moves to this one, which the other leaves empty.
    const merged = [target.budgetGroupId, other.budgetGroupId].filter((id): id is string => id !== null && id !== groupId);
    if (merged.length > 0) await tx.user.updateMany({ where: { budgetGroupId: { in: merged } }, data: { budgetGroupId: groupId } });
    await tx.user.updateMany({ where: { id: { in: [target.id, other.id] } }, data: { budgetGroupId: groupId } });
    if (merged.length > 0) await tx.budgetGroup.deleteMany({ where: { id: { in: merged } } });
    const members = await membersOf(tx, groupId);
    await recordAudit(tx, {
      actorId,
      action: "user.budget-linked",
      targetType: "User",
      targetId: userId,
      reason: change.reason,
      details: { budgetGroupId: groupId, linkedWith: other.id, members: members.map((member) => member.id), mergedGroups: merged },
    });
    return { userId, budgetGroupId: groupId, members, isChanged: true };
  });
}

function membersOf(tx: Prisma.TransactionClient, groupId: string) {
  return tx.user.findMany({ where: { budgetGroupId: groupId }, select: { id: true, displayName: true, email: true }, orderBy: { createdAt: "asc" } });
}
