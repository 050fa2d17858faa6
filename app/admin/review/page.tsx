import type { Metadata } from "next";
import { MAINTAINER_INTERVAL_LABEL } from "@/lib/core/format/explanations";
import type { ReactNode } from "react";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { describeIdenticalPublicEntry } from "@/lib/core/submissions/describe-identical-public-entry";
import { formatCount, formatDecimal, formatDecimalInterval, formatPercent } from "@/lib/core/format/numbers";
import { formatDateTime } from "@/lib/core/format/dates";
import { RaisedFlagsSummary } from "@/components/submissions/probe-flags-table";
import { isMaintainer, type Actor } from "@/lib/domain/accounts/actor";
import { getSubmissionView } from "@/lib/domain/submissions/get-submission-view";
import { parseReviewDone, REVIEW_DONE_TEXT, type QueueLeavingAction } from "@/lib/core/submissions/review-done";
import { FocusedStatus } from "@/components/ui/focused-alert";
import { getActor } from "@/lib/domain/accounts/get-actor";
import { listReviewQueue, type ReviewQueueRow } from "@/lib/domain/publication/list-review-queue";
import { listReviewRequests, type ReviewRequest } from "@/lib/domain/publication/list-review-requests";
import { ComparisonTable } from "@/components/submissions/score-tables";
import { QueueReviewPanel } from "@/components/submissions/queue-review-panel";
import { formatPercentInterval as formatInterval } from "@/lib/core/format/numbers";
import { formatMetricName } from "@/lib/core/format/metric-labels";
import { FactSheetView } from "@/components/fact-sheet/fact-sheet-view";
import { TierBadge } from "@/components/provenance/tier-badge";
import { TableShell } from "@/components/ui/table-shell";
import { DisclosureLedgerTable, parseLedgerSort, type LedgerSort } from "@/components/admin/disclosure-ledger-table";
import { getDisclosureLedger, type DisclosureLedger } from "@/lib/domain/publication/get-disclosure-ledger";

export const metadata: Metadata = { title: "Review queue" };
export const dynamic = "force-dynamic";

function QueueTable({ rows, caption }: { rows: ReviewQueueRow[]; caption: string }) {
  if (rows.length === 0) return <p className="text-muted">Nothing here.</p>;
  return (
    <TableShell
      caption={caption}
      head={
        <>
          <th scope="col">System</th>
          <th scope="col">Owner</th>
          <th scope="col">Split / track</th>
          <th scope="col">Status</th>
          <th scope="col" className="text-right">Primary (%)</th>
          <th scope="col">Publication</th>
          <th scope="col">Probe flags</th>
          <th scope="col">Date</th>
        </>
      }
    >
      {rows.map((row) => (
        <tr key={row.id} className="border-b border-line">
          <th scope="row">
            <Link href={`/submissions/${row.id}`}>{row.systemName ?? row.id}</Link>
            {row.isBaseline && <span className="ml-2 rounded bg-slate-200 px-1 text-xs">baseline</span>}
          </th>
          <td>{row.ownerName}</td>
          <td>
            {row.split} / {row.track}
          </td>
          <td>
            {row.status.toLowerCase()}
            {row.isStale && <span className="ml-1 rounded bg-amber-200 px-1 text-xs">stale</span>}
          </td>
          <td className="text-right">{formatPercent(row.primary)}</td>
          <td>{row.publication.toLowerCase()}</td>
          <td>{row.split === "test" ? <RaisedFlagsSummary flags={row.probe_flags} /> : ""}</td>
          <td className="whitespace-nowrap">{formatDateTime(row.requestedAt ?? row.createdAt)}</td>
        </tr>
      ))}
    </TableShell>
  );
}

function OverallScores({ request }: { request: ReviewRequest }) {
  const score = request.view.score;
  if (score === null) return <p className="text-sm text-muted">Not scored.</p>;
  const metrics = score.report.metrics as Record<string, number | null>;
  const ci = score.report.ci95 as Record<string, [number, number] | null>;
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3 lg:grid-cols-6" aria-label="Overall scores with 95% intervals">
      {Object.keys(metrics).map((key) => (
        <div key={key}>
          <dt className="text-muted">{formatMetricName(key)}</dt>
          <dd className="tabular-nums">
            {key === "mrr" ? formatDecimal(metrics[key]) : formatPercent(metrics[key])}{" "}
            <span className="text-xs text-muted">{key === "mrr" ? formatDecimalInterval(ci[key]) : formatInterval(ci[key])}</span>
          </dd>
        </div>
      ))}
      <div>
        <dt className="text-muted">n</dt>
        <dd className="tabular-nums">{formatCount(score.report.n)}</dd>
      </div>
    </dl>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted">{term}</dt>
      <dd className="break-words">{children}</dd>
    </>
  );
}

/** Protocol §12: the owner's published and pending entries on the release name, per track, against the cap. */
function EntriesAgainstCap({ request }: { request: ReviewRequest }) {
  const { entries } = request;
  return (
    <section className="space-y-1" data-testid="review-entries">
      <h4 className="font-semibold">Published and pending entries of this account on {entries.releaseName} (all versions)</h4>
      <ul className="list-disc pl-6 text-sm">
        {entries.byTrack.map((group) => (
          <li key={group.track}>
            {group.track}-world: {formatCount(group.entries.length)} of at most {formatCount(entries.max)}
            {group.entries.length > 0 && (
              <>
                {": "}
                {group.entries.map((entry, index) => (
                  <span key={entry.id}>
                    {index > 0 ? "; " : ""}
                    <Link href={`/submissions/${entry.id}`}>{entry.system}</Link> ({entry.publication.toLowerCase()}, {entry.releaseVersion})
                  </span>
                ))}
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Protocol §12: test files of other accounts whose answers are this file's in all but a few samples. */
function CloseFiles({ request }: { request: ReviewRequest }) {
  const { closeFiles, closeFilesRequired, closeFilesUncompared } = request;
  return (
    <section className="space-y-1" data-testid="review-close-files">
      <h4 className="font-semibold">Near-copies by other accounts</h4>
      <p className="text-sm text-muted">
        Test files of other accounts, uploaded or requested, whose answers (by the unified answer key, every answer that cannot be right on the test split
        counting as one) differ from this file&apos;s in fewer than {formatCount(closeFilesRequired)} samples of the test split (the publication guard&apos;s
        distance: ceil(max(25, 1% of the test split) / (1 - f))): a copied file, or a second account of the same person (link them into one entries budget on
        the account&apos;s page).
      </p>
      {request.view.identicalPublicEntry && (
        <p className="text-sm font-semibold text-amber-900" data-testid="review-identical-public-entry">
          <Link href={`/entries/${request.view.identicalPublicEntry.id}`}>{describeIdenticalPublicEntry(request.view.identicalPublicEntry, "maintainer")}</Link>
        </p>
      )}
      {closeFiles.length === 0 && !request.view.identicalPublicEntry ? (
        <p className="text-sm">None.</p>
      ) : (
        <ul className="list-disc pl-6 text-sm">
          {closeFiles.map((file) => (
            <li key={file.id}>
              <Link href={`/submissions/${file.id}`}>{file.system}</Link> by {file.ownerName}
              {file.isBaseline ? " (baseline)" : ""} · {file.track}-world · {file.releaseVersion} · differs in {formatCount(file.differing)} samples ·{" "}
              {formatDateTime(file.createdAt)}
            </li>
          ))}
        </ul>
      )}
      {closeFilesUncompared > 0 && (
        <p className="text-sm text-amber-900">{formatCount(closeFilesUncompared)} stored files could not be read to compare; reload the page to try again.</p>
      )}
    </section>
  );
}

/** Everything a reviewer needs to decide on one request, with the actions beside it. */
/** Protocol §12: what every account has spent on the request's release name, the requester in bold, heaviest first unless sorted otherwise. */
function RequestLedger({ request, ledger, sort }: { request: ReviewRequest; ledger: DisclosureLedger | undefined; sort: LedgerSort }) {
  return (
    <section className="space-y-1" data-testid="review-ledger">
      <h4 className="font-semibold">Disclosure ledger of {request.entries.releaseName}</h4>
      {ledger === undefined ? (
        <p className="text-sm text-muted">No test uploads on this release name.</p>
      ) : (
        <DisclosureLedgerTable {...ledger} sort={sort} highlightUserId={request.ownerId} sortHref={(value) => `/admin/review?ledgerSort=${encodeURIComponent(value)}#request-${request.view.id}`} />
      )}
    </section>
  );
}

function RequestCard({ request, ledger, sort }: { request: ReviewRequest; ledger: DisclosureLedger | undefined; sort: LedgerSort }) {
  const { view, otherEntries } = request;
  const name = view.systemName ?? view.originalName;
  return (
    <article aria-labelledby={`request-${view.id}`} className="space-y-4 rounded border border-line bg-white p-4" data-testid="review-request">
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={`request-${view.id}`} className="text-lg font-semibold">
          <Link href={`/submissions/${view.id}`}>{name}</Link>{" "}
          <span className="text-sm font-normal text-muted">
            {view.track}-world, by {view.ownerName}
          </span>
        </h3>
        <span className="text-sm text-muted">submitted {formatDateTime(view.createdAt)}</span>
      </header>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
        <Fact term="Method">
          <span className="whitespace-pre-line" data-testid="review-method">
            {view.methodDescription ?? "not given"}
          </span>
        </Fact>
        <Fact term="Provenance">
          <TierBadge tier={view.provenance.tier} />
        </Fact>
        <Fact term="File">
          {view.originalName} · {view.sampleCount} samples
        </Fact>
      </dl>
      {/* The card opens on what decides (method, provenance, the actions); the evidence is one click away, so a long queue stays scannable. */}
      <details className="space-y-4 rounded border border-line p-3" data-testid="review-details">
        <summary className="cursor-pointer font-semibold">Fact sheet, scores, comparisons and the owner&apos;s other entries</summary>
      <section className="space-y-2">
        <h4 className="font-semibold">Fact sheet</h4>
        {view.factSheet === null ? <p className="text-sm text-muted">No fact sheet.</p> : <FactSheetView sheet={view.factSheet} missing={view.factSheetMissing} />}
      </section>
      <section className="space-y-2">
        <h4 className="font-semibold">Scores (test split, unrounded)</h4>
        <p className="text-sm text-muted" data-testid="review-interval-label">Intervals: {MAINTAINER_INTERVAL_LABEL}.</p>
        <OverallScores request={request} />
      </section>
      <section className="space-y-2" data-testid="review-comparisons">
        <h4 className="font-semibold">Against the baselines</h4>
        <ComparisonTable comparisons={view.comparisons} />
      </section>
      <section className="space-y-1">
        <h4 className="font-semibold">The owner&apos;s other test entries</h4>
        {otherEntries.length === 0 ? (
          <p className="text-sm text-muted">None: this is {view.ownerName}&apos;s only test submission.</p>
        ) : (
          <ul className="list-disc pl-6 text-sm" data-testid="review-other-entries">
            {otherEntries.map((entry) => (
              <li key={entry.id}>
                <Link href={`/submissions/${entry.id}`}>{entry.system}</Link> · {entry.track}-world · {entry.status.toLowerCase()} ·{" "}
                {entry.publication.toLowerCase()}
                {entry.isPrimary ? " · primary" : ""} · {formatPercent(entry.primary)}% · {formatDateTime(entry.createdAt)}
              </li>
            ))}
          </ul>
        )}
      </section>
      </details>
      <EntriesAgainstCap request={request} />
      <CloseFiles request={request} />
      <RequestLedger request={request} ledger={ledger} sort={sort} />
      <QueueReviewPanel view={view} />
    </article>
  );
}

/** The result of the decision the queue was reloaded after (its card has left the queue), in focus, with links to the entry. */
async function DecisionDone({ actor, action, submissionId }: { actor: Actor; action: QueueLeavingAction; submissionId: string }) {
  const view = await getSubmissionView(actor, submissionId).catch(() => null);
  if (view === null) return null;
  const name = view.systemName ?? view.baselineLabel ?? view.originalName;
  const isPublic = view.publication === "PUBLISHED" || view.isBaseline;
  return (
    <FocusedStatus className="rounded border border-green-300 bg-green-50 p-3 text-green-900" testId="review-done">
      &ldquo;{name}&rdquo;: {REVIEW_DONE_TEXT[action]} {isPublic && <Link href={`/entries/${view.id}`}>Open its public entry page</Link>}
      {isPublic && " · "}
      <Link href={`/submissions/${view.id}`}>Open the submission</Link>
    </FocusedStatus>
  );
}

export default async function ReviewQueuePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await getActor();
  if (actor.kind === "anonymous") redirect("/sign-in?callbackUrl=%2Fadmin%2Freview");
  if (!isMaintainer(actor)) notFound();
  const params = await searchParams;
  const sort = parseLedgerSort(params.ledgerSort);
  const done = parseReviewDone(params);
  const [{ pending, recent }, requests] = await Promise.all([listReviewQueue(actor), listReviewRequests(actor)]);
  const releaseNames = [...new Set(requests.map((request) => request.entries.releaseName))];
  const ledgers = new Map(
    (await Promise.all(releaseNames.map((releaseName) => getDisclosureLedger({ actor, releaseName, sort })))).flat().map((ledger) => [ledger.releaseName, ledger]),
  );
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-bold">Review queue</h1>
      {done && <DecisionDone actor={actor} action={done.action} submissionId={done.submissionId} />}
      <p>
        Open a submission to approve or reject its publication, hide it, re-score it or mark it as a baseline. Every action is recorded in
        the <Link href="/admin/audit">audit log</Link>. A test file with raised probe flags (signs of a file built to read the gold, see
        docs/integrity.md) can only be approved or made a baseline after you acknowledge each flag and give a reason.
      </p>
      <section className="space-y-2">
        <h2 className="text-xl font-semibold">Publication requests ({pending.length})</h2>
        <QueueTable rows={pending} caption="Oldest request first" />
      </section>
      {requests.length > 0 && (
        <section className="space-y-4" aria-labelledby="requests-in-detail">
          <h2 id="requests-in-detail" className="text-xl font-semibold">
            Requests in detail
          </h2>
          {requests.map((request) => (
            <RequestCard key={request.view.id} request={request} ledger={ledgers.get(request.entries.releaseName)} sort={sort} />
          ))}
        </section>
      )}
      <section className="space-y-2">
        <h2 className="text-xl font-semibold">Recent submissions</h2>
        <QueueTable rows={recent} caption="The latest 100 submissions of all participants" />
      </section>
    </div>
  );
}
