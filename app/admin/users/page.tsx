import type { Metadata } from "next";
import Link from "next/link";
import { ApprovalForm } from "@/components/auth/approval-form";
import { QuickApproveList } from "@/components/auth/quick-approve-list";
import { RoleChangeForm } from "@/components/auth/role-change-form";
import { requirePageMaintainer } from "@/lib/domain/accounts/page-guards";
import { formatCount } from "@/lib/core/format/numbers";
import { findActiveRelease } from "@/lib/domain/releases/get-release";
import { listRoleChanges, listUsers, type RoleChangeEntry, type UserListEntry } from "@/lib/domain/accounts/list-users";
import { APPROVAL_TEST_SIZE, isApprovedUser, testApprovalPolicy, type TestApprovalPolicy } from "@/lib/domain/accounts/test-approval";
import { changeApprovalAction, changeRoleAction, quickApproveAction } from "@/app/admin/users/actions";
import { formatDate } from "@/lib/core/format/dates";
import { HIDDEN_CAPTION_CLASS, TableShell } from "@/components/ui/table-shell";

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

/** Whether test submissions on the active release need approval, and who decided (protocol §12, TEST_REQUIRES_APPROVAL). */
function describePolicy(policy: TestApprovalPolicy | null, releaseLabel: string): string {
  if (!policy) return "No release is active; approvals are kept for when one is.";
  const size = `its test split has ${formatCount(policy.testSamples)} samples`;
  if (policy.isRequired) {
    return policy.source === "auto"
      ? `Test submissions on ${releaseLabel} need a maintainer's approval: ${size}, ${formatCount(APPROVAL_TEST_SIZE)} or more (TEST_REQUIRES_APPROVAL is unset, so the release's size decides).`
      : `Test submissions on ${releaseLabel} need a maintainer's approval (TEST_REQUIRES_APPROVAL=1; ${size}).`;
  }
  if (policy.source === "operator" && policy.isLargeRelease) {
    return `Approval is turned off (TEST_REQUIRES_APPROVAL=0) although ${releaseLabel}'s test split has ${formatCount(policy.testSamples)} samples: every account may submit test files, and the dataset page says so.`;
  }
  return policy.source === "auto"
    ? `Test submissions on ${releaseLabel} are open to every account: ${size}, fewer than ${formatCount(APPROVAL_TEST_SIZE)}. Approvals are kept for larger releases.`
    : `Test submissions are open to every account (TEST_REQUIRES_APPROVAL=0); approvals are kept for when it is turned on.`;
}

type ActiveRelease = Awaited<ReturnType<typeof findActiveRelease>>;

export default async function AdminUsersPage() {
  const actor = await requirePageMaintainer("/admin/users");
  const [listed, changes, release] = await Promise.all([listUsers({ actor }), listRoleChanges({ actor }), findActiveRelease()]);
  // Accounts waiting for approval first, oldest first (listUsers orders by role, then age).
  const users = [...listed.filter((user) => !isApprovedUser(user)), ...listed.filter((user) => isApprovedUser(user))];
  const names = new Map(users.map((user) => [user.id, user.displayName]));
  const maintainerCount = users.filter((user) => user.role === "MAINTAINER" && !user.isSystem).length;
  const policy = release ? testApprovalPolicy(release) : null;
  const waiting = users.filter((user) => !isApprovedUser(user));

  return (
    <div className="space-y-8">
      <UsersIntro users={users} maintainerCount={maintainerCount} policy={policy} release={release} />
      <WaitingSection waiting={waiting} />
      <UsersTable users={users} />
      <RoleHistory changes={changes} names={names} />
    </div>
  );
}

function UsersIntro({ users, maintainerCount, policy, release }: { users: UserListEntry[]; maintainerCount: number; policy: TestApprovalPolicy | null; release: ActiveRelease }) {
  return (
    <div className="space-y-2">
      <h1 className="text-3xl font-bold">Users</h1>
      <p className="max-w-3xl text-muted">
        {users.length} accounts, {maintainerCount} {maintainerCount === 1 ? "maintainer" : "maintainers"}. Maintainers review
        submissions and manage accounts; the last maintainer cannot be demoted. Every change is recorded in the audit log.
      </p>
      <p className="max-w-3xl text-muted" data-testid="approval-policy">
        {describePolicy(policy, release ? `${release.name} ${release.version}` : "")} Maintainers and the system account count as approved; dev
        submissions are open to everyone.
      </p>
    </div>
  );
}

function WaitingSection({ waiting }: { waiting: UserListEntry[] }) {
  const waitingCount = waiting.length;
  return (
    <section aria-labelledby="waiting-heading" className="space-y-2">
      <h2 id="waiting-heading" className="text-xl font-semibold">
        Waiting for approval ({formatCount(waitingCount)})
      </h2>
      <p className="max-w-3xl text-sm text-muted">
        Oldest first. One click approves an account for test submissions and is recorded in the audit log; take an approval back in the
        table below.
      </p>
      <QuickApproveList
        action={quickApproveAction}
        accounts={waiting.map((user) => ({
          id: user.id,
          displayName: user.displayName,
          email: user.email,
          affiliation: user.affiliation,
          joined: day(user.createdAt),
        }))}
      />
    </section>
  );
}

function UsersTable({ users }: { users: UserListEntry[] }) {
  return (
    <TableShell
      caption="All accounts"
      tableClassName="min-w-full border border-line bg-white text-sm"
      captionClassName={HIDDEN_CAPTION_CLASS}
      headClassName="bg-slate-50"
      head={
        <>
          <th scope="col">Display name</th>
          <th scope="col">Email</th>
          <th scope="col">Affiliation</th>
          <th scope="col">Role</th>
          <th scope="col">Signs in with</th>
          <th scope="col">Active tokens</th>
          <th scope="col">Joined</th>
          <th scope="col">Test submissions</th>
          <th scope="col">Test quota</th>
          <th scope="col">Change role</th>
        </>
      }
    >
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
                <span className="text-muted">none</span>
              ) : (
                // The accessible name starts with the visible words (WCAG 2.5.3), then says whose quota it is.
                <Link href={`/admin/users/${user.id}`} aria-label={`ledger, grant, refund: test quota of ${user.displayName}`}>
                  ledger, grant, refund
                </Link>
              )}
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
    </TableShell>
  );
}

function RoleHistory({ changes, names }: { changes: RoleChangeEntry[]; names: Map<string, string> }) {
  return (
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
  );
}
