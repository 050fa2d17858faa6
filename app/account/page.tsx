import type { Metadata } from "next";
import Link from "next/link";
import { ProfileForm } from "@/components/auth/profile-form";
import { requirePageUser } from "@/lib/auth/page-guards";
import { getProfile } from "@/lib/users/get-profile";
import { updateProfileAction } from "@/app/account/actions";
import { formatDate } from "@/lib/format/dates";

export const metadata: Metadata = { title: "Your account" };

export default async function AccountPage() {
  const actor = await requirePageUser("/account");
  const profile = await getProfile({ actor });
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
          <dd>
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
    </div>
  );
}
