import type { Metadata } from "next";
import { ApprovalForm } from "@/components/auth/approval-form";
import { RoleChangeForm } from "@/components/auth/role-change-form";
import { requirePageMaintainer } from "@/lib/auth/page-guards";
import { getEnv } from "@/lib/env";
import { listRoleChanges, listUsers, type RoleChangeEntry, type UserListEntry } from "@/lib/users/list-users";
import { isApprovedUser } from "@/lib/users/test-approval";
import { changeApprovalAction, changeRoleAction } from "@/app/admin/users/actions";
import { formatDate } from "@/lib/format/dates";

export const metadata: Metadata = { title: "Users" };

function day(value: Date): string {
  return formatDate(value);
}

function describeChange({ action, details }: RoleChangeEntry): string {
  if (action === "user.approved") return "approved for test submissions";
  if (action === "user.approval_revoked") return "approval for test submissions revoked";
  if (details && typeof details === "object" && "from" in details && "to" in details) {
    return `${String(details.from).toLowerCase()} → ${String(details.to).toLowerCase()}`;
  }
  return "role changed";
}

function approvalLabel(user: UserListEntry): string {
  if (user.isSystem) return "system account";
  if (user.approvedAt) return `approved ${day(user.approvedAt)}`;
  return user.role === "MAINTAINER" ? "maintainer" : "waiting";
}

export default async function AdminUsersPage() {
  const actor = await requirePageMaintainer("/admin/users");
  const [users, changes] = await Promise.all([listUsers({ actor }), listRoleChanges({ actor })]);
  const names = new Map(users.map((user) => [user.id, user.displayName]));
  const maintainerCount = users.filter((user) => user.role === "MAINTAINER" && !user.isSystem).length;
  const isApprovalRequired = getEnv().TEST_REQUIRES_APPROVAL;
  const waitingCount = users.filter((user) => !isApprovedUser(user)).length;

  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold">Users</h1>
        <p className="max-w-3xl text-muted">
          {users.length} accounts, {maintainerCount} {maintainerCount === 1 ? "maintainer" : "maintainers"}. Maintainers review
          submissions and manage accounts; the last maintainer cannot be demoted. Every change is recorded in the audit log.
        </p>
        <p className="max-w-3xl text-muted">
          {isApprovalRequired
            ? `Test submissions need a maintainer's approval (TEST_REQUIRES_APPROVAL=1): ${waitingCount} ${waitingCount === 1 ? "account waits" : "accounts wait"}. Maintainers and the system account count as approved; dev submissions are open to everyone.`
            : "Test submissions are open to every account (TEST_REQUIRES_APPROVAL is off); approvals are kept for when it is turned on."}
        </p>
      </div>
      <div className="overflow-x-auto">
        <table className="min-w-full border border-line bg-white text-sm">
          <caption className="sr-only">All accounts</caption>
          <thead className="bg-slate-50">
            <tr>
              <th scope="col">Display name</th>
              <th scope="col">Email</th>
              <th scope="col">Affiliation</th>
              <th scope="col">Role</th>
              <th scope="col">Signs in with</th>
              <th scope="col">Active tokens</th>
              <th scope="col">Joined</th>
              <th scope="col">Test submissions</th>
              <th scope="col">Change role</th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => {
              const methods = [...(user.hasPassword ? ["password"] : []), ...user.linkedProviders];
              return (
                <tr key={user.id} className="border-t border-line align-top">
                  <th scope="row" className="font-medium">
                    {user.displayName}
                  </th>
                  <td>{user.email}</td>
                  <td>{user.affiliation}</td>
                  <td>{user.isSystem ? "System" : user.role === "MAINTAINER" ? "Maintainer" : "Participant"}</td>
                  <td>{methods.length > 0 ? methods.join(", ") : "nothing"}</td>
                  <td>{user.activeTokenCount}</td>
                  <td>{day(user.createdAt)}</td>
                  <td>
                    <div className="space-y-1">
                      <span>{approvalLabel(user)}</span>
                      {!user.isSystem && (
                        <ApprovalForm action={changeApprovalAction} userId={user.id} displayName={user.displayName} approve={user.approvedAt === null} />
                      )}
                    </div>
                  </td>
                  <td>
                    {user.isSystem ? (
                      <span className="text-muted">system account</span>
                    ) : (
                      <RoleChangeForm
                        action={changeRoleAction}
                        userId={user.id}
                        displayName={user.displayName}
                        targetRole={user.role === "MAINTAINER" ? "PARTICIPANT" : "MAINTAINER"}
                      />
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <section aria-labelledby="history-heading" className="space-y-2">
        <h2 id="history-heading" className="text-xl font-semibold">
          Recent role and approval changes
        </h2>
        {changes.length === 0 ? (
          <p>No role or approval changes yet.</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {changes.map((change) => (
              <li key={change.id}>
                {day(change.createdAt)}: {names.get(change.targetId) ?? change.targetId} {describeChange(change)} by{" "}
                {change.actorName ?? "the command line"}
                {change.reason ? ` (${change.reason})` : ""}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
