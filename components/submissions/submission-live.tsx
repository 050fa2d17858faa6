"use client";

import { formatScoreVersions } from "@/lib/core/format/versions";
import { FactSheetView } from "@/components/fact-sheet/fact-sheet-view";
import { ReproductionPanel } from "@/components/provenance/reproduction-panel";
import { TierBadge } from "@/components/provenance/tier-badge";
import Link from "next/link";
import { useEffect, useState } from "react";
import type { SubmissionView } from "@/lib/domain/submissions/get-submission-view";
import { ComparisonTable, ScoreTables, SliceTables } from "@/components/submissions/score-tables";
import { formatBytes } from "@/lib/core/format/bytes";
import { formatDate, formatDateTime } from "@/lib/core/format/dates";
import { describeIdenticalPublicEntry } from "@/lib/core/submissions/describe-identical-public-entry";
import { OwnerControls } from "@/components/submissions/owner-controls";
import { PublishForm } from "@/components/submissions/publish-form";
import { ReviewPanel } from "@/components/submissions/review-panel";
import { FocusedStatus } from "@/components/ui/focused-alert";

const POLL_MS = 1500;
const STEPS = ["QUEUED", "SCORING", "SCORED"] as const;

function isTerminal(view: SubmissionView): boolean {
  return view.status === "SCORED" || view.status === "FAILED";
}


/** What a submission cost whose test quota, from the quota ledger, in the words of the person reading. */
function quotaText(view: SubmissionView, isOwner: boolean): string {
  const whose = isOwner ? "your" : `${view.ownerName}'s`;
  switch (view.quota.state) {
    case "free":
      return view.split === "dev" ? "free (dev submissions cost no test quota)" : "free (not charged to a test quota)";
    case "refunded":
      return `refunded to ${whose} test quota${view.quota.reason ? `: ${view.quota.reason}` : ""}`;
    default:
      return `charged to ${whose} test quota${view.quota.reason ? ` (${view.quota.reason})` : ""}`;
  }
}

function QueuePositionText({ position }: { position: NonNullable<SubmissionView["queuePosition"]> }) {
  const ahead = position.position - 1;
  const running =
    position.beingScored === 0 ? "none is being scored right now" : position.beingScored === 1 ? "1 is being scored now" : `${position.beingScored} are being scored now`;
  return (
    <p className="mt-3 text-sm" data-testid="queue-position">
      Position in the scoring queue: <strong>{position.position}</strong> of {position.waiting} waiting
      {ahead === 0 ? " (next)" : ` (${ahead} ahead of it)`}; {running}.
    </p>
  );
}

/** A submission's status, updated live until it is scored or failed, then its scores. */
// eslint-disable-next-line max-lines-per-function -- polling, status and report share one state; to split (issue 33 follow-up)
export function SubmissionLive({ initial, isOwner, isMaintainer }: { initial: SubmissionView; isOwner: boolean; isMaintainer: boolean }) {
  const [view, setView] = useState(initial);
  const [pollError, setPollError] = useState<string | null>(null);
  // Set by a publication request sent from this page: its confirmation takes focus once the page shows the request pending.
  const [hasRequested, setHasRequested] = useState(false);

  async function refresh() {
    const response = await fetch(`/api/submissions/${view.id}`, { cache: "no-store" }).catch(() => null);
    if (response?.ok) setView((await response.json()) as SubmissionView);
  }

  useEffect(() => {
    if (isTerminal(view)) return;
    const timer = setTimeout(async () => {
      try {
        const response = await fetch(`/api/submissions/${view.id}`, { cache: "no-store" });
        if (!response.ok) throw new Error(`status ${response.status}`);
        setView((await response.json()) as SubmissionView);
        setPollError(null);
      } catch (error) {
        setPollError(`Could not refresh the status (${(error as Error).message}); retrying.`);
        setView((current) => ({ ...current }));
      }
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [view]);

  // The live region is in the page from the first render (a region added with its text is not read); it speaks on a change only.
  const announcement = view.status === initial.status ? "" : `Status changed: ${view.status.toLowerCase()}${view.status === "FAILED" && view.failureReason ? `. ${view.failureReason}` : ""}.`;
  const reached = STEPS.indexOf(view.status as (typeof STEPS)[number]);
  return (
    <div className="space-y-6">
      <section aria-labelledby="status-heading" className="rounded border border-line bg-white p-4">
        <h2 id="status-heading" className="mb-2 text-xl font-semibold">
          Status: <span data-testid="submission-status">{view.status.toLowerCase()}</span>
        </h2>
        <p aria-live="polite" className="sr-only" data-testid="status-announcement">
          {announcement}
        </p>
        <ol className="flex flex-wrap gap-4 text-sm" aria-label="Progress">
          {STEPS.map((step, index) => (
            <li key={step} className={index <= reached ? "font-semibold text-accent" : "text-muted"}>
              {index + 1}. {step.toLowerCase()}
            </li>
          ))}
        </ol>
        <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
          <dt className="text-muted">Submitted</dt>
          <dd>{formatDateTime(view.createdAt)}</dd>
          <dt className="text-muted">Scoring started</dt>
          <dd>{formatDateTime(view.startedAt)}</dd>
          <dt className="text-muted">Finished</dt>
          <dd>{formatDateTime(view.finishedAt)}</dd>
          <dt className="text-muted">File</dt>
          <dd>
            {view.originalName} · {formatBytes(view.fileBytes)} · {view.sampleCount} samples · SHA-256{" "}
            <code className="break-all text-xs">{view.fileSha256.slice(0, 16)}…</code>
          </dd>
          <dt className="text-muted">Quota</dt>
          <dd data-testid="submission-quota">{quotaText(view, isOwner)}</dd>
        </dl>
        <p data-testid="submission-visibility" className={`mt-3 text-sm ${view.visibility.isPublic ? "font-semibold" : ""}`}>
          {view.visibility.text}
        </p>
        {view.identicalPublicEntry && (
          <p className="mt-3 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="identical-public-entry">
            {describeIdenticalPublicEntry(view.identicalPublicEntry, isOwner ? "owner" : "maintainer")}{" "}
            <a href={`/entries/${view.identicalPublicEntry.id}`}>Open the public entry</a>
          </p>
        )}
        {view.status === "QUEUED" && view.queuePosition && <QueuePositionText position={view.queuePosition} />}
        {view.status === "QUEUED" && view.failureReason && <p className="mt-3 text-amber-800">{view.failureReason}</p>}
        {view.status === "FAILED" && (
          <div role="alert" className="mt-3 rounded border border-red-300 bg-red-50 p-3 text-red-900">
            <p className="font-semibold">{view.failureKind === "INVALID" ? "The file could not be scored" : "Scoring failed on our side"}</p>
            <p>{view.failureReason}</p>
          </div>
        )}
        {pollError && <p className="mt-2 text-sm text-amber-800">{pollError}</p>}
      </section>

      {view.score && (
        <section aria-labelledby="scores-heading" className="space-y-4">
          <h2 id="scores-heading" className="text-xl font-semibold">
            Scores ({view.track}-world track, {view.split} split)
          </h2>
          {view.score.isStale && (
            <p className="rounded bg-amber-50 p-2 text-amber-900">
              These scores are stale: the scorer or the gold changed since they were computed. They will be re-scored.
            </p>
          )}
          <ScoreTables report={view.score.report} feedbackFraction={view.feedbackFraction} />
          {view.score.slices && <SliceTables slices={view.score.slices} />}
          <h3 className="text-lg font-semibold">Significance against the baselines</h3>
          <ComparisonTable comparisons={view.comparisons} />
          <p className="text-xs text-muted">
            <span data-testid="score-versions">{formatScoreVersions({ scorer: view.score.report.scorer_version, platform: view.score.scorerVersion })}</span> · gold version <code>{view.score.goldVersion}</code> · computed{" "}
            {formatDateTime(view.score.computedAt)}
          </p>
        </section>
      )}

      {view.hasSampleOutcomes && (
        <section aria-labelledby="samples-heading" className="rounded border border-line bg-white p-4">
          <h2 id="samples-heading" className="text-xl font-semibold">
            Samples and errors (dev)
          </h2>
          <p className="text-sm">
            Every dev sample with its narrative, the gold entity, your answer and why it is right or wrong; filters, search and CSV / JSON Lines export.
          </p>
          <p className="mt-2 flex flex-wrap gap-4">
            <Link href={`/submissions/${view.id}/samples`} data-testid="browse-samples">
              Browse the samples and error classes →
            </Link>
            {isOwner && <Link href={`/submissions/compare?new=${view.id}`}>Compare with another dev run →</Link>}
          </p>
        </section>
      )}

      {view.split === "test" && view.status === "SCORED" && <PublicationStatus view={view} isOwner={isOwner} hasRequested={hasRequested} />}
      {isOwner && view.split === "test" && view.status === "SCORED" && !view.isBaseline && <OwnerControls view={view} onDone={refresh} />}
      {isOwner && view.split === "test" && view.status === "SCORED" && (view.publication === "PRIVATE" || view.publication === "REJECTED") && (
        <PublishForm
          submissionId={view.id}
          defaults={view}
          onRequested={() => {
            setHasRequested(true);
            void refresh();
          }}
        />
      )}
      {view.canEditFactSheet && view.factSheet !== null && (isOwner ? view.publication === "PENDING" : true) && (
        <PublishForm
          submissionId={view.id}
          defaults={view}
          onRequested={refresh}
          mode={{ kind: "edit", needsReason: !isOwner && (view.publication === "PUBLISHED" || view.publication === "HIDDEN") }}
        />
      )}
      {isMaintainer && <ReviewPanel view={view} onDone={refresh} />}
      {isMaintainer && view.split === "test" && view.status === "SCORED" && !view.isBaseline && (view.publication === "PUBLISHED" || view.publication === "PENDING") && (
        <ReproductionPanel view={view} onDone={refresh} />
      )}
    </div>
  );
}

/** The publication state in the words of the person reading: the owner, or a maintainer reviewing someone's entry. */
function publicationText(view: SubmissionView, isOwner: boolean): string {
  switch (view.publication) {
    case "PRIVATE":
      return isOwner ? "No publication requested." : "Its owner has not asked to publish it.";
    case "PENDING":
      return isOwner ? "Publication requested: a maintainer will review it." : "Publication requested: waiting for a maintainer's review.";
    case "PUBLISHED":
      return "Published on the public leaderboard.";
    case "REJECTED":
      return isOwner ? "Publication was rejected. You can change the details below and ask again." : "Publication was rejected.";
    case "HIDDEN":
      if (view.hiddenByOwner) return isOwner ? "You hid it from the leaderboard." : "Hidden from the leaderboard by its owner.";
      return "Hidden from the leaderboard by a maintainer.";
  }
}

function PublicationStatus({ view, isOwner, hasRequested }: { view: SubmissionView; isOwner: boolean; hasRequested: boolean }) {
  return (
    <section aria-labelledby="publication-heading" className="rounded border border-line bg-white p-4">
      <h2 id="publication-heading" className="text-lg font-semibold">
        Publication
      </h2>
      {view.publication === "REJECTED" ? (
        <div className="mt-1 rounded border border-red-300 bg-red-50 p-3 text-red-900" data-testid="rejection-banner">
          <p data-testid="publication-status" className="font-semibold">
            {publicationText(view, isOwner)}
          </p>
          {view.reviewReason && <p data-testid="review-reason">Maintainer&apos;s note: {view.reviewReason}</p>}
        </div>
      ) : (
        <p data-testid="publication-status">{publicationText(view, isOwner)}</p>
      )}
      {hasRequested && view.publication === "PENDING" && (
        <FocusedStatus className="mt-2 rounded border border-green-300 bg-green-50 p-2 text-sm text-green-900" testId="publication-requested">
          Request sent: a maintainer will review &ldquo;{view.systemName}&rdquo;. The decision shows here, and you can withdraw the request
          below while it waits.
        </FocusedStatus>
      )}
      {view.systemName && (
        <div className="mt-2 space-y-2 text-sm">
          <p>
            <span className="text-muted">System:</span> {view.systemName} <TierBadge tier={view.provenance.tier} />
            {view.provenance.reproducedAt && (
              <span className="text-muted">
                {" "}
                (reproduced by {view.provenance.reproducedBy ?? "a former maintainer"} on {formatDate(view.provenance.reproducedAt)})
              </span>
            )}
          </p>
          {view.methodDescription && <p className="whitespace-pre-line">{view.methodDescription}</p>}
          {view.factSheet && (
            <details open={view.publication !== "PUBLISHED"}>
              <summary className="cursor-pointer font-medium">Fact sheet</summary>
              <FactSheetView sheet={view.factSheet} missing={view.factSheetMissing} />
            </details>
          )}
        </div>
      )}
      {view.reviewReason && view.publication !== "REJECTED" && (
        <p className="text-sm" data-testid="review-reason">
          Maintainer&apos;s note: {view.reviewReason}
        </p>
      )}
      {view.publication === "PUBLISHED" && (
        <p className="text-sm">
          <a href={`/entries/${view.id}`}>Open the public entry</a>
        </p>
      )}
    </section>
  );
}
