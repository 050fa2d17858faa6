import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { ErrorAnalysisSection } from "@/components/samples/error-analysis";
import { SubmissionLive } from "@/components/submissions/submission-live";
import { isMaintainer } from "@/lib/auth/actor";
import { getActor } from "@/lib/auth/get-actor";
import { isAppError } from "@/lib/errors";
import { getErrorAnalysis } from "@/lib/sample-browser/get-error-analysis";
import { queryHref } from "@/lib/sample-browser/query-href";
import type { ErrorAnalysis } from "@/lib/sample-browser/schemas";
import { getSubmissionView, type SubmissionView } from "@/lib/submissions/get-submission-view";
import type { Actor } from "@/lib/auth/actor";

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
        <Link href="/submissions">← My submissions</Link>
      </p>
      <h1 className="text-2xl font-bold">
        {view.systemName ?? view.originalName} <span className="text-base font-normal text-muted">({view.releaseName})</span>
      </h1>
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
