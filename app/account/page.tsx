import type { Metadata } from "next";
import Link from "next/link";
import { formatDate } from "@/lib/format/dates";
import { formatCount } from "@/lib/format/numbers";
import { ProfileForm } from "@/components/auth/profile-form";
import { QuotaLedgerTable } from "@/components/submissions/quota-ledger-table";
import { requirePageUser } from "@/lib/auth/page-guards";
import { findActiveRelease } from "@/lib/releases/get-release";
import { listQuotaLedger } from "@/lib/submissions/list-quota-ledger";
import { getTestQuota } from "@/lib/submissions/quota";
import { getProfile } from "@/lib/users/get-profile";
import { updateProfileAction } from "@/app/account/actions";

export const metadata: Metadata = { title: "Your account" };

export default async function AccountPage() {
  const actor = await requirePageUser("/account");
  const [profile, release] = await Promise.all([getProfile({ actor }), findActiveRelease()]);
  const [ledger, quota] = release
    ? await Promise.all([listQuotaLedger(actor.userId, release.id), getTestQuota(actor.userId, release.id)])
    : [null, null];
  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-bold">Your account</h1>
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
      {release && ledger && quota && (
        <section aria-labelledby="quota-ledger-heading" id="quota-ledger" className="space-y-2">
          <h2 id="quota-ledger-heading" className="text-xl font-semibold">
            Test quota ledger
          </h2>
          <p className="max-w-3xl">
            Every charge, refund and grant of your test submissions on {release.name} {release.version}: {formatCount(quota.remaining)} left (used{" "}
            {formatCount(quota.usedToday)} of {formatCount(quota.perDay)} in the last 24 hours, {formatCount(quota.usedTotal)} of{" "}
            {formatCount(quota.total)} in total). A test file is charged once it passes the checks (an invalid one never is); one
            the platform fails to score is refunded automatically, with the reason. The same list is{" "}
            <code>GET /api/quota/ledger</code>.
          </p>
          <QuotaLedgerTable entries={ledger} caption="Your test quota ledger, newest first" />
        </section>
      )}
    </div>
  );
}
