import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { QuotaAdjustmentForm } from "@/components/auth/quota-adjustment-form";
import { QuotaLedgerTable } from "@/components/submissions/quota-ledger-table";
import { requirePageMaintainer } from "@/lib/domain/accounts/page-guards";
import { db } from "@/lib/platform/db";
import { formatCount } from "@/lib/core/format/numbers";
import { findActiveRelease } from "@/lib/domain/releases/get-release";
import { listQuotaLedger } from "@/lib/domain/quotas/list-quota-ledger";
import { getTestQuota } from "@/lib/domain/quotas/quota";
import { recordIdSchema } from "@/lib/core/text";
import { adjustQuotaAction, changeBudgetGroupAction } from "@/app/admin/users/actions";
import { BudgetGroupForm } from "@/components/admin/budget-group-form";
import { DisclosureLedgerTable, parseLedgerSort } from "@/components/admin/disclosure-ledger-table";
import { getDisclosureLedger } from "@/lib/domain/publication/get-disclosure-ledger";
import { getActor } from "@/lib/domain/accounts/get-actor";

export const metadata: Metadata = { title: "Test quota of an account" };
export const dynamic = "force-dynamic";

/** One account's test quota on the active release: its ledger, a grant form and a refund per unrefunded charge. */
export default async function AdminUserQuotaPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const query = await searchParams;
  const before = recordIdSchema.safeParse(query.ledgerBefore);
  const ledgerSort = parseLedgerSort(query.ledgerSort);
  await requirePageMaintainer(`/admin/users/${encodeURIComponent(id)}`);
  const userId = recordIdSchema.safeParse(id);
  if (!userId.success) notFound();
  const [user, release] = await Promise.all([
    db.user.findUnique({
      where: { id: userId.data },
      select: { id: true, displayName: true, email: true, isSystem: true, budgetGroup: { select: { members: { select: { id: true, displayName: true, email: true }, orderBy: { createdAt: "asc" } } } } },
    }),
    findActiveRelease(),
  ]);
  if (!user || user.isSystem) notFound();
  const disclosure = await getDisclosureLedger({ actor: await getActor(), userId: user.id, sort: ledgerSort });
  const accountSections = <AccountIntegritySections user={user} disclosure={disclosure} ledgerSort={ledgerSort} />;
  if (!release) return (
    <div className="space-y-6">
      <p>No dataset release is active, so there is no test quota to show.</p>
      {accountSections}
    </div>
  );
  const [ledger, quota] = await Promise.all([listQuotaLedger(user.id, { releaseId: release.id, before: before.success ? before.data : undefined }), getTestQuota(user.id, release.id)]);
  // A refund cancels the charge of its own round (a retried submission may be charged again: quota-ledger.ts).
  const refunded = new Set(ledger.entries.filter((entry) => entry.kind === "REFUND").map((entry) => `${entry.submissionId}:${entry.round}`));

  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link href="/admin/users">← All users</Link>
      </p>
      <h1 className="text-3xl font-bold">Test quota of {user.displayName}</h1>
      <p className="max-w-3xl">
        {user.email} on {release.name} {release.version}: {formatCount(quota.remaining)} test submissions left (used {formatCount(quota.usedToday)} of{" "}
        {formatCount(quota.perDay)} in the last 24 hours, {formatCount(quota.usedTotal)} of {formatCount(quota.total)} in total
        {quota.granted > 0 ? `, ${formatCount(quota.granted)} of them granted` : ""}). A grant raises this account&apos;s budget, usable at once
        and from the address it uploads from; a refund gives one submission&apos;s charge back. Both need a reason, which the participant
        reads on their ledger, and both are recorded in the audit log.
      </p>
      <section aria-labelledby="grant-heading" className="space-y-2">
        <h2 id="grant-heading" className="text-xl font-semibold">
          Grant test submissions
        </h2>
        <QuotaAdjustmentForm action={adjustQuotaAction} userId={user.id} mode={{ kind: "grant" }} />
      </section>
      <section aria-labelledby="ledger-heading" className="space-y-2">
        <h2 id="ledger-heading" className="text-xl font-semibold">
          Ledger
        </h2>
        <QuotaLedgerTable
          entries={ledger.entries}
          caption={`Test quota ledger of ${user.displayName}, newest first`}
          actionHeading="Refund"
          olderHref={ledger.nextBefore === null ? null : `/admin/users/${encodeURIComponent(user.id)}?ledgerBefore=${ledger.nextBefore}#ledger-heading`}
          actionFor={(entry) =>
            entry.kind === "CHARGE" && entry.submissionId !== null && !refunded.has(`${entry.submissionId}:${entry.round}`) ? (
              <QuotaAdjustmentForm
                action={adjustQuotaAction}
                userId={user.id}
                mode={{ kind: "refund", submissionId: entry.submissionId, submissionName: entry.submissionName ?? entry.submissionId }}
              />
            ) : entry.kind === "CHARGE" && entry.submissionId !== null ? (
              <span data-testid="charge-refunded">refunded</span>
            ) : null
          }
        />
      </section>
      {accountSections}
    </div>
  );
}

type AccountWithGroup = { id: string; displayName: string; budgetGroup: { members: { id: string; displayName: string; email: string }[] } | null };

/** Protocol §12: the account's entries budget (shared or its own) and its disclosure ledger per release name. */
function AccountIntegritySections({ user, disclosure, ledgerSort }: { user: AccountWithGroup; disclosure: Awaited<ReturnType<typeof getDisclosureLedger>>; ledgerSort: ReturnType<typeof parseLedgerSort> }) {
  const others = user.budgetGroup?.members.filter((member) => member.id !== user.id) ?? [];
  return (
    <>
      <section aria-labelledby="budget-heading" className="space-y-2">
        <h2 id="budget-heading" className="text-xl font-semibold">
          Entries budget
        </h2>
        <p className="max-w-3xl" data-testid="budget-group">
          {others.length === 0
            ? `${user.displayName} has an entries budget of its own: max_entries_per_account published or pending entries per track and release name.`
            : `${user.displayName} shares one entries budget (max_entries_per_account per track and release name, for all of them together) with ${others.map((member) => `${member.displayName} (${member.email})`).join(", ")}.`}{" "}
          Link approved accounts a maintainer knows to be one person or one lab (protocol §12); every change is in the audit log.
        </p>
        <BudgetGroupForm action={changeBudgetGroupAction} userId={user.id} mode="link" />
        {others.length > 0 && <BudgetGroupForm action={changeBudgetGroupAction} userId={user.id} mode="unlink" />}
      </section>
      <section aria-labelledby="disclosure-heading" className="space-y-2">
        <h2 id="disclosure-heading" className="text-xl font-semibold">
          Disclosure ledger
        </h2>
        <p className="max-w-3xl text-sm text-muted">
          What this account has spent of each release name&apos;s test split (protocol §12): test uploads (each a feedback query), publication requests the guard
          accepted, refused or that were withdrawn, published and hidden entries, and near-copies (requests refused as too close to another file), beside the
          release&apos;s totals over every account.
        </p>
        {disclosure.length === 0 ? (
          <p>No test uploads yet.</p>
        ) : (
          disclosure.map((ledger) => (
            <DisclosureLedgerTable
              key={ledger.releaseName}
              {...ledger}
              sort={ledgerSort}
              highlightUserId={user.id}
              sortHref={(value) => `/admin/users/${encodeURIComponent(user.id)}?ledgerSort=${encodeURIComponent(value)}#disclosure-heading`}
            />
          ))
        )}
      </section>
    </>
  );
}
