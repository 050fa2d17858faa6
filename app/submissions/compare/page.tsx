import { formatDateTime } from "@/lib/core/format/dates";
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { SampleBrowser } from "@/components/samples/sample-browser";
import { formatDecimal, formatPercent } from "@/lib/core/format/numbers";
import { getActor } from "@/lib/domain/accounts/get-actor";
import { isAppError } from "@/lib/core/errors";
import { formatPValue } from "@/lib/core/format/p-values";
import { compareDevRuns } from "@/lib/domain/submissions/compare-dev-runs";
import { getSamplePage, parseSampleQuery } from "@/lib/domain/submissions/get-sample-page";
import type { RunComparisonView, SamplePage, SampleQuery } from "@/lib/core/submissions/sample-schemas";
import { listSubmissionsOf, type SubmissionSummary } from "@/lib/domain/submissions/list-submissions";

export const metadata: Metadata = { title: "Compare two runs" };
export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;
const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

function runLabel(run: SubmissionSummary): string {
  const note = run.note ? ` — ${run.note.slice(0, 40)}` : "";
  return `${run.originalName} (${run.track}, ${formatDateTime(run.createdAt)})${note}`;
}

function RunPicker({ runs, oldId, newId }: { runs: SubmissionSummary[]; oldId?: string; newId?: string }) {
  return (
    <form method="get" action="/submissions/compare" className="flex flex-wrap items-end gap-3 rounded border border-line bg-white p-3 text-sm" aria-label="Pick two runs">
      {(["old", "new"] as const).map((side) => (
        <div key={side} className="flex w-full min-w-0 flex-col sm:w-auto">
          <label htmlFor={`run-${side}`} className="text-xs text-muted">
            {side === "old" ? "Earlier run" : "Newer run"}
          </label>
          <select id={`run-${side}`} name={side} defaultValue={(side === "old" ? oldId : newId) ?? ""} className="w-full min-w-0 rounded border border-line px-2 py-1 sm:w-auto sm:max-w-md" required>
            <option value="">choose a dev run</option>
            {runs.map((run) => (
              <option key={run.id} value={run.id}>
                {runLabel(run)}
              </option>
            ))}
          </select>
        </div>
      ))}
      <button type="submit" className="rounded bg-accent px-3 py-1.5 text-white">
        Compare
      </button>
    </form>
  );
}

function Summary({ comparison }: { comparison: RunComparisonView }) {
  const { mcnemar } = comparison;
  const metric = comparison.metric === "alias" ? "alias accuracy" : "hit@1";
  return (
    <section aria-labelledby="summary-heading" className="space-y-3">
      <h2 id="summary-heading" className="text-xl font-semibold">
        What changed ({metric}, {comparison.n} dev samples)
      </h2>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4 [&>dd]:min-w-0 [&>dd]:break-words" data-testid="compare-summary">
        <dt className="text-muted">Earlier run</dt>
        <dd>
          <Link href={`/submissions/${comparison.old.id}`}>{comparison.old.originalName}</Link>: {formatPercent(comparison.oldRate)}%
        </dd>
        <dt className="text-muted">Newer run</dt>
        <dd>
          <Link href={`/submissions/${comparison.new.id}`}>{comparison.new.originalName}</Link>: {formatPercent(comparison.newRate)}%
        </dd>
        <dt className="text-muted">Fixed (b)</dt>
        <dd data-testid="fixed-count">{mcnemar.b}</dd>
        <dt className="text-muted">Broken (c)</dt>
        <dd data-testid="broken-count">{mcnemar.c}</dd>
        <dt className="text-muted">McNemar χ²</dt>
        <dd>{formatDecimal(mcnemar.chi2, 2)}</dd>
        <dt className="text-muted">p (χ², exact)</dt>
        <dd>
          {formatPValue(mcnemar.p)}, {formatPValue(mcnemar.p_exact)}
        </dd>
      </dl>
      <p className="text-sm text-muted">
        McNemar&apos;s test with continuity correction on the samples the runs disagree on (protocol section 9): b counts samples the newer run fixed, c those it broke.
      </p>
      <div tabIndex={0} className="overflow-x-auto">
        <table className="bg-white text-sm" aria-label="Differences per entity type">
          <thead className="border-b border-line">
            <tr>
              <th scope="col">Type</th>
              <th scope="col" className="text-right">n</th>
              <th scope="col" className="text-right">Earlier (%)</th>
              <th scope="col" className="text-right">Newer (%)</th>
              <th scope="col" className="text-right">Δ (points)</th>
              <th scope="col" className="text-right">Fixed</th>
              <th scope="col" className="text-right">Broken</th>
            </tr>
          </thead>
          <tbody>
            {comparison.byType
              .filter((row) => row.n > 0)
              .map((row) => (
                <tr key={row.type} className="border-b border-line">
                  <th scope="row">{row.type}</th>
                  <td className="text-right">{row.n}</td>
                  <td className="text-right">{formatPercent(row.oldRate)}</td>
                  <td className="text-right">{formatPercent(row.newRate)}</td>
                  <td className="text-right">{row.oldRate === null || row.newRate === null ? "–" : formatDecimal(((row.newRate - row.oldRate) * 100), 1)}</td>
                  <td className="text-right">
                    {row.fixed > 0 ? <Link href={`/submissions/compare?old=${comparison.old.id}&new=${comparison.new.id}&change=fixed&type=${encodeURIComponent(row.type)}`}>{row.fixed}</Link> : 0}
                  </td>
                  <td className="text-right">
                    {row.broken > 0 ? <Link href={`/submissions/compare?old=${comparison.old.id}&new=${comparison.new.id}&change=broken&type=${encodeURIComponent(row.type)}`}>{row.broken}</Link> : 0}
                  </td>
                </tr>
              ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Two of the participant's dev runs side by side: fixed and broken samples, McNemar, per type, and the changed samples. */
export default async function CompareRunsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const actor = await getActor();
  if (actor.kind === "anonymous") redirect("/sign-in?callbackUrl=%2Fsubmissions%2Fcompare");
  const runs = (await listSubmissionsOf(actor.userId)).filter((run) => run.split === "dev" && run.status === "SCORED");
  const [oldId, newId] = [one(search.old), one(search.new)];
  let problem: string | null = null;
  let comparison: RunComparisonView | null = null;
  let page: SamplePage | null = null;
  let query: SampleQuery | null = null;
  if (oldId && newId) {
    try {
      comparison = await compareDevRuns(actor, { old: oldId, new: newId });
      // The two runs are this page's own parameters; the rest are the instance browser's.
      const { old: _old, new: _new, ...browser } = search;
      query = { ...parseSampleQuery(browser), against: oldId };
      page = await getSamplePage(actor, newId, query);
    } catch (error) {
      if (!isAppError(error)) throw error;
      problem = error.message;
    }
  }
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link href="/runs">← My runs</Link>
      </p>
      <h1 className="text-2xl font-bold">Compare two dev runs</h1>
      {runs.length < 2 ? (
        <p>
          Comparing needs two scored dev runs of yours; you have {runs.length}. <Link href="/submit">Submit dev predictions</Link>.
        </p>
      ) : (
        <RunPicker runs={runs} oldId={oldId} newId={newId} />
      )}
      {problem && (
        <p role="alert" className="rounded border border-amber-300 bg-amber-50 p-2 text-sm">
          {problem}
        </p>
      )}
      {comparison && <Summary comparison={comparison} />}
      {comparison && page && query && (
        <SampleBrowser
          page={page}
          query={{ ...query, against: undefined }}
          path="/submissions/compare"
          keep={{ old: comparison.old.id, new: comparison.new.id }}
          apiPath={`/api/submissions/${comparison.new.id}/samples`}
          apiKeep={{ against: comparison.old.id }}
          collections={page.collections}
          answerLabel="Newer run's answer"
          otherLabel="Earlier run's answer"
        />
      )}
    </div>
  );
}
