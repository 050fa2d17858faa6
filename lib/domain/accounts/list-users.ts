import "server-only";
import { requireMaintainer, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import type { Role } from "@/lib/platform/generated/prisma";

export type UserListEntry = {
  id: string;
  email: string;
  displayName: string;
  affiliation: string;
  role: Role;
  isSystem: boolean;
  hasPassword: boolean;
  linkedProviders: string[];
  activeTokenCount: number;
  /** When a maintainer approved the account for test submissions (needed on releases of 1,000 test samples or more by default: lib/domain/accounts/test-approval.ts). */
  approvedAt: Date | null;
  createdAt: Date;
};

export type RoleChangeEntry = {
  id: string;
  /** "user.role_changed", "user.approved" or "user.approval_revoked". */
  action: string;
  createdAt: Date;
  actorName: string | null;
  targetId: string;
  reason: string | null;
  details: unknown;
};

/** Every account, for /admin/users (maintainers only). */
export async function listUsers(options: { actor: Actor; now?: Date }): Promise<UserListEntry[]> {
  requireMaintainer(options.actor);
  const now = options.now ?? new Date();
  const users = await db.user.findMany({
    orderBy: [{ role: "desc" }, { createdAt: "asc" }],
    select: {
      id: true,
      email: true,
      displayName: true,
      affiliation: true,
      role: true,
      isSystem: true,
      passwordHash: true,
      approvedAt: true,
      createdAt: true,
      accounts: { select: { provider: true } },
      _count: { select: { apiTokens: { where: { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] } } } },
    },
  });
  return users.map((user) => ({
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    affiliation: user.affiliation,
    role: user.role,
    isSystem: user.isSystem,
    hasPassword: user.passwordHash !== null,
    linkedProviders: user.accounts.map((account) => account.provider),
    activeTokenCount: user._count.apiTokens,
    approvedAt: user.approvedAt,
    createdAt: user.createdAt,
  }));
}

const ACCOUNT_CHANGE_ACTIONS = ["user.role_changed", "user.approved", "user.approval_revoked"] as const;

/** The latest role and approval changes, newest first, for the admin page's history. */
export async function listRoleChanges(options: { actor: Actor; take?: number }): Promise<RoleChangeEntry[]> {
  requireMaintainer(options.actor);
  const entries = await db.auditLog.findMany({
    where: { action: { in: [...ACCOUNT_CHANGE_ACTIONS] } },
    orderBy: { createdAt: "desc" },
    take: options.take ?? 20,
    select: { id: true, action: true, createdAt: true, targetId: true, reason: true, details: true, actor: { select: { displayName: true } } },
  });
  return entries.map((entry) => ({
    id: entry.id,
    action: entry.action,
    createdAt: entry.createdAt,
    actorName: entry.actor?.displayName ?? null,
    targetId: entry.targetId,
    reason: entry.reason,
    details: entry.details,
  }));
}
