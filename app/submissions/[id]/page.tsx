import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { ErrorAnalysisSection } from "@/components/samples/error-analysis";
import { SubmissionLive } from "@/components/submissions/submission-live";
import { isMaintainer } from "@/lib/domain/accounts/actor";
import { getActor } from "@/lib/domain/accounts/get-actor";
import { isAppError } from "@/lib/core/errors";
import { getErrorAnalysis } from "@/lib/domain/submissions/get-error-analysis";
import { queryHref } from "@/lib/core/submissions/query-href";
import type { ErrorAnalysis } from "@/lib/core/submissions/sample-schemas";
import { getSubmissionView, type SubmissionView } from "@/lib/domain/submissions/get-submission-view";
import type { Actor } from "@/lib/domain/accounts/actor";

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
  const analysis = await errorAnalysisFor(actor, view);
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
      {analysis && <ErrorAnalysisSection analysis={analysis} browseHref={analysis.kind === "dev" ? (filters) => queryHref(`/submissions/${id}/samples`, filters) : undefined} />}
    </div>
  );
}

/** Error classes when scored and disclosed to this viewer (dev: all; test: the owner's shares after publication). */
async function errorAnalysisFor(actor: Actor, view: SubmissionView): Promise<ErrorAnalysis | null> {
  if (view.status !== "SCORED") return null;
  if (view.split === "test" && view.publication !== "PUBLISHED") return null;
  try {
    return await getErrorAnalysis(actor, view.id);
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") return null;
    throw error;
  }
}
