import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { SubmissionLive } from "@/components/submissions/submission-live";
import { isMaintainer } from "@/lib/auth/actor";
import { getActor } from "@/lib/auth/get-actor";
import { isAppError } from "@/lib/errors";
import { getSubmissionView, type SubmissionView } from "@/lib/submissions/get-submission-view";

export const metadata: Metadata = { title: "Submission" };
export const dynamic = "force-dynamic";

export default async function SubmissionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await getActor();
  if (actor.kind === "anonymous") redirect(`/sign-in?callbackUrl=${encodeURIComponent(`/submissions/${id}`)}`);
  let view: SubmissionView;
  try {
    view = await getSubmissionView(actor, id);
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") notFound();
    throw error;
  }
  return (
    <div className="space-y-6">
      <p className="text-sm">
        {view.isViewerOwner ? <Link href="/submissions">← My submissions</Link> : <Link href="/admin/review">← Review queue</Link>}
      </p>
      <h1 className="text-2xl font-bold break-words">
        {view.systemName ?? view.originalName} <span className="text-base font-normal text-muted">({view.releaseName})</span>
      </h1>
      {!view.isViewerOwner && (
        <p className="text-sm" data-testid="submission-owner">
          Submitted by <strong>{view.ownerName}</strong>; you are viewing it as a maintainer.
        </p>
      )}
      <SubmissionLive initial={view} isOwner={view.isViewerOwner} isMaintainer={isMaintainer(actor)} />
    </div>
  );
}
