import "server-only";
import { requireMaintainer, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import type { Role } from "@/lib/platform/generated/prisma";
import { parseRecordId } from "@/lib/core/text";
import { recordAudit } from "@/lib/platform/audit/record-audit";

/** Someone with shell access to the server (npm run user:create -- --promote). */
type OperatorActor = { kind: "operator"; via: "cli" };

type ChangeUserRoleOptions = {
  actor: Actor | OperatorActor;
  userId: string;
  role: Role;
  reason?: string;
};

type RoleChange = { userId: string; from: Role; to: Role; isChanged: boolean };

/**
 * Promotes or demotes a user and records it in the audit log. The last
 * maintainer cannot be demoted, not even by themself. The maintainer rows are
 * locked first, so two maintainers demoting each other at the same moment
 * cannot both succeed and leave nobody in charge.
 */
export async function changeUserRole(options: ChangeUserRoleOptions): Promise<RoleChange> {
  const actorId = options.actor.kind === "operator" ? null : requireMaintainer(options.actor).userId;
  const reason = options.reason?.trim() || null;

  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "User" WHERE "role" = 'MAINTAINER' AND "isSystem" = false FOR UPDATE`;
    const target = await tx.user.findUnique({ where: { id: parseRecordId(options.userId, "user") }, select: { id: true, role: true, isSystem: true } });
    if (!target) throw new AppError("not_found", "No such user.");
    if (target.isSystem) throw new AppError("forbidden", "The system account's role cannot be changed.");
    if (target.role === options.role) return { userId: target.id, from: target.role, to: target.role, isChanged: false };

    if (target.role === "MAINTAINER") {
      const maintainers = await tx.user.count({ where: { role: "MAINTAINER", isSystem: false } });
      if (maintainers <= 1) {
        throw new AppError("conflict", "This is the last maintainer. Promote someone else before demoting them.");
      }
    }
    await tx.user.update({ where: { id: target.id }, data: { role: options.role } });
    await recordAudit(tx, {
        actorId,
        action: "user.role_changed",
        targetType: "User",
        targetId: target.id,
        reason,
        details: { from: target.role, to: options.role, via: options.actor.kind === "operator" ? "cli" : "web" },
      });
    return { userId: target.id, from: target.role, to: options.role, isChanged: true };
  });
}
