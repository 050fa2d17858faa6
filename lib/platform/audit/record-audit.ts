import type { Prisma } from "@/lib/platform/generated/prisma";

/**
 * The audit log's one writer and its vocabulary. Every action a person (or
 * the platform on their behalf) takes on a submission, user, token, quota or
 * release is one row, written in the same transaction as the change it
 * records; `/admin/audit` names each action with the words below.
 */
const AUDIT_ACTIONS = {
  "submission.approve": "approved publication",
  "submission.reject": "rejected publication",
  "submission.hide": "hid from the leaderboard",
  "submission.rescore": "queued for re-scoring",
  "submission.mark-baseline": "marked as a baseline",
  "submission.unmark-baseline": "unmarked as a baseline",
  "submission.retry": "retried a failed submission",
  "submission.publication-refused": "was refused publication by the guard",
  "submission.withdraw": "withdrew the publication request",
  "submission.owner-hide": "hid their entry",
  "submission.owner-unhide": "showed their entry again",
  "submission.set-primary": "made it their primary entry",
  "submission.unset-primary": "stopped making it their primary entry",
  "submission.edit-fact-sheet": "edited the fact sheet",
  "submission.reproduce": "marked reproduced (same per-sample outcomes)",
  "submission.reproduction-refused": "refused a reproduction (outcomes differ)",
  "submission.unreproduce": "revoked the reproduced tier",
  "user.role_changed": "changed the role",
  "user.approved": "approved for test submissions",
  "user.approval_revoked": "revoked the approval for test submissions",
  "user.budget-linked": "linked into one entries budget with another account",
  "user.budget-unlinked": "took out of its shared entries budget",
  "user.oauth_linked": "linked a GitHub account",
  "user.created_via_oauth": "created via GitHub",
  "quota.granted": "granted test submissions",
  "quota.refunded": "refunded a test submission",
  "api_token.revoked": "revoked an API token",
  "release.superseded": "marked the release superseded",
  "release.superseded_removed": "took back the release's superseded mark",
} as const;

type AuditAction = keyof typeof AUDIT_ACTIONS;

/** The "what" column in words: "submission.approve" -> "approved publication". */
export function describeAuditAction(action: string): string {
  return (AUDIT_ACTIONS as Record<string, string>)[action] ?? action;
}

type AuditEntry = {
  /** Who acted; null: the platform itself. */
  actorId: string | null;
  action: AuditAction;
  targetType: "Submission" | "User" | "ApiToken" | "DatasetRelease";
  targetId: string;
  reason?: string | null;
  details?: Prisma.InputJsonValue;
};

/**
 * Writes one audit row through `client` (the transaction of the change it
 * records, or `db` inside a `db.$transaction([...])` list).
 */
export function recordAudit(client: Pick<Prisma.TransactionClient, "auditLog">, entry: AuditEntry) {
  return client.auditLog.create({ data: entry });
}
