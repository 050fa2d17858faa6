import type { Metadata } from "next";
import { z } from "zod";
import { isAppError } from "@/lib/core/errors";
import Link from "next/link";
import { formatDate } from "@/lib/core/format/dates";
import { formatCount } from "@/lib/core/format/numbers";
import { ProfileForm } from "@/components/auth/profile-form";
import { QuotaLedgerTable } from "@/components/submissions/quota-ledger-table";
import { requirePageUser } from "@/lib/domain/accounts/page-guards";
import { findActiveRelease } from "@/lib/domain/releases/get-release";
import { listQuotaLedger } from "@/lib/domain/quotas/list-quota-ledger";
import { getTestQuota } from "@/lib/domain/quotas/quota";
import { getProfile } from "@/lib/domain/accounts/get-profile";
import { updateProfileAction } from "@/app/account/actions";
import { FocusedStatus } from "@/components/ui/focused-alert";

export const metadata: Metadata = { title: "Your account" };

/** A `before` that is no row of the account's ledger is null (the page says so); any other error stands. */
function unlessNotOfTheLedger(error: unknown): null {
  if (isAppError(error) && error.code === "validation") return null;
  throw error;
}

/** ?ledgerBefore=<row id>: the ledger's older rows (the link under a page cut off at its size). */
const ledgerBeforeSchema = z.string().regex(/^[a-z0-9]{1,64}$/);

/** Where sign-up lands, signed in: what to do next, in focus. */
function Welcome({ displayName }: { displayName: string }) {
  return (
    <FocusedStatus className="rounded border border-green-300 bg-green-50 p-3 text-green-900" testId="welcome">
      Welcome, {displayName}: your account is ready and you are signed in. Next: <Link href="/dataset">download the data</Link>, score dev
      predictions offline, then <Link href="/submit">upload your predictions</Link>.
    </FocusedStatus>
  );
}

export default async function AccountPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requirePageUser("/account");
  const before = ledgerBeforeSchema.safeParse((await searchParams).ledgerBefore);
  const [profile, release] = await Promise.all([getProfile({ actor }), findActiveRelease()]);
  // Every release's rows, each naming its release: a charge on an older release stays visible.
  const [olderPage, quota] = await Promise.all([
    before.success ? listQuotaLedger(actor.userId, { releaseId: null, before: before.data }).catch(unlessNotOfTheLedger) : null,
    release ? getTestQuota(actor.userId, release.id) : null,
  ]);
  // A ?ledgerBefore= that is no row of this ledger (a stale or edited link) shows the newest rows and says so.
  const isBadBefore = (await searchParams).ledgerBefore !== undefined && olderPage === null;
  const isWelcome = (await searchParams).welcome === "1";
  const ledger = olderPage ?? (await listQuotaLedger(actor.userId, { releaseId: null }));
  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-bold">Your account</h1>
      {isWelcome && <Welcome displayName={profile.displayName} />}
      <section aria-labelledby="profile-heading" className="space-y-4">
        <h2 id="profile-heading" className="text-xl font-semibold">
          Profile
        </h2>
        <ProfileForm action={updateProfileAction} displayName={profile.displayName} affiliation={profile.affiliation} />
      </section>
      <section aria-labelledby="sign-in-heading" className="space-y-2">
        <h2 id="sign-in-heading" className="text-xl font-semibold">
          Sign-in details
        </h2>
        <dl className="grid max-w-md grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="font-medium">Email</dt>
          <dd className="min-w-0 break-words">
            {profile.email} <span className="text-sm text-muted">(private: only you and the maintainers see it)</span>
          </dd>
          <dt className="font-medium">Role</dt>
          <dd>{profile.role === "MAINTAINER" ? "Maintainer" : "Participant"}</dd>
          <dt className="font-medium">Member since</dt>
          <dd>{formatDate(profile.createdAt)}</dd>
        </dl>
      </section>
      <section aria-labelledby="tokens-heading" className="space-y-2">
        <h2 id="tokens-heading" className="text-xl font-semibold">
          API tokens
        </h2>
        <p>
          Scripts use API tokens instead of your password. <Link href="/account/tokens">Manage API tokens</Link>.
        </p>
      </section>
      <section aria-labelledby="quota-ledger-heading" id="quota-ledger" className="space-y-2">
        <h2 id="quota-ledger-heading" className="text-xl font-semibold">
          Test quota ledger
        </h2>
        <p className="max-w-3xl">
          Every charge, refund and grant of your test submissions, on every release
          {release && quota && (
            <>
              {" "}
              (on the active one, {release.name} {release.version}: {formatCount(quota.remaining)} left, used {formatCount(quota.usedToday)} of{" "}
              {formatCount(quota.perDay)} in the last 24 hours, {formatCount(quota.usedTotal)} of {formatCount(quota.total)} in total)
            </>
          )}
          . A test file is charged once it passes the checks (an invalid one never is); one the platform fails to score before any score of it
          was shown is refunded automatically, with the reason. The same list is <code>GET /api/quota/ledger?release=all</code>.
        </p>
        {isBadBefore && <p role="status">The link asked for rows older than one that is not in your ledger; these are the newest rows.</p>}
        {olderPage !== null && (
          <p>
            Older rows. <Link href="/account#quota-ledger">Back to the newest</Link>.
          </p>
        )}
        <QuotaLedgerTable
          entries={ledger.entries}
          caption="Your test quota ledger, newest first"
          hasReleaseColumn
          olderHref={ledger.nextBefore === null ? null : `/account?ledgerBefore=${ledger.nextBefore}#quota-ledger`}
        />
      </section>
    </div>
  );
}
