import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { UploadForm } from "@/components/submissions/upload-form";
import { getActor } from "@/lib/domain/accounts/get-actor";
import { getEnv } from "@/lib/platform/env";
import { findActiveRelease } from "@/lib/domain/releases/get-release";
import { getTestQuota } from "@/lib/domain/quotas/quota";
import { AWAITING_APPROVAL_MESSAGE, mayUserSubmitTest } from "@/lib/domain/accounts/test-approval";

export const metadata: Metadata = { title: "Submit" };
export const dynamic = "force-dynamic";

export default async function SubmitPage() {
  const actor = await getActor();
  if (actor.kind === "anonymous") redirect("/sign-in?callbackUrl=%2Fsubmit");
  const release = await findActiveRelease();
  if (!release) {
    return <p>No dataset release is active yet, so there is nothing to submit to.</p>;
  }
  const [quota, mayTest] = await Promise.all([getTestQuota(actor.userId, release.id), mayUserSubmitTest(actor.userId, release.id)]);
  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-2xl font-bold">Submit predictions</h1>
      <p>
        Upload a prediction file for the <strong>dev</strong> split (no quota; you see per-sample feedback) or the{" "}
        <strong>test</strong> split (limited; aggregate scores only) of {release.name} {release.version}. The track and
        split are read from the file. Every line is checked before anything is queued, and each problem is listed with
        its line number. See the <Link href="/dataset">dataset page</Link> for the formats.
      </p>
      {!mayTest && (
        <p role="status" className="rounded border border-amber-300 bg-amber-50 p-3">
          {AWAITING_APPROVAL_MESSAGE} A maintainer approves accounts on the users page; test files uploaded before then are refused
          and cost no quota.
        </p>
      )}
      <p className="text-sm text-muted">
        A test file must differ from each of your earlier test files of the same track in at least max(25, 1%) samples
        (protocol §12); one that does not is refused before queueing and costs no quota.
      </p>
      <p className="text-sm text-muted">
        Every charge and refund of your test quota is on <Link href="/account#quota-ledger">your account page</Link>. The budget
        binds your network address too: every account that uploads from one address shares one address budget of the same size.
      </p>
      <UploadForm quota={{ ...quota, nextFreeAt: quota.nextFreeAt?.toISOString() ?? null }} maxBytes={getEnv().UPLOAD_MAX_BYTES} />
      <section className="space-y-2 text-sm">
        <h2 className="text-lg font-semibold">From a script</h2>
        <p>Create an API token on your account page, then:</p>
        <pre className="overflow-x-auto rounded bg-slate-900 p-3 text-slate-100">{`curl -H "Authorization: Bearer $IRC_TOKEN" -F file=@preds.jsonl <site>/api/submissions
curl -H "Authorization: Bearer $IRC_TOKEN" <site>/api/submissions/<id>`}</pre>
      </section>
    </div>
  );
}
