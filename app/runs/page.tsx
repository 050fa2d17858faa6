import { formatDateTime } from "@/lib/core/format/dates";
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { RunHistoryChart, type RunSeries } from "@/components/charts/run-history-chart";
import { formatPercent } from "@/lib/core/format/numbers";
import { roundTo } from "@/lib/core/format/round";
import { NoteEditor } from "@/components/submissions/note-editor";
import { getActor } from "@/lib/domain/accounts/get-actor";
import { listSubmissionsOf, type SubmissionSummary } from "@/lib/domain/submissions/list-submissions";
import { HIDDEN_CAPTION_CLASS, TableShell } from "@/components/ui/table-shell";

export const metadata: Metadata = { title: "My runs" };
export const dynamic = "force-dynamic";

const COMPARE_FORM = "compare-runs";
const METRIC = { open: "alias accuracy", closed: "hit@1" } as const;

/**
 * One line per split and track, oldest run first; test values are the disclosed (rounded) headline numbers, in percent
 * rounded to 0.01 so that 0.333 travels as 33.3, not 33.300000000000004 (section 12's digits).
 */
function historySeries(runs: readonly SubmissionSummary[]): RunSeries[] {
  const series = new Map<string, RunSeries>();
  for (const run of [...runs].reverse()) {
    if (run.primary === null) continue;
    const key = `${run.split}-${run.track}`;
    let line = series.get(key);
    if (!line) {
      line = { key, label: `${run.split}, ${run.track}-world (${METRIC[run.track as "open" | "closed"] ?? "primary"})`, points: [] };
      series.set(key, line);
    }
    line.points.push({ time: Date.parse(run.createdAt), value: roundTo(run.primary * 100, 2), file: run.originalName });
  }
  return [...series.values()];
}

/** A participant's submissions over time, with the primary metric, a note per run, and two dev runs to compare. */
// eslint-disable-next-line max-lines-per-function -- the page's query parsing, data load and markup; its parts are components already
export default async function RunsPage() {
  const actor = await getActor();
  if (actor.kind === "anonymous") redirect("/sign-in?callbackUrl=%2Fruns");
  const runs = await listSubmissionsOf(actor.userId);
  const series = historySeries(runs);
  const devRuns = runs.filter((run) => run.split === "dev" && run.status === "SCORED");
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">My runs</h1>
        <div className="flex gap-3 text-sm">
          <Link href="/submissions">Submissions list</Link>
          <Link href="/submit" className="rounded bg-accent px-3 py-2 text-white! no-underline">
            New submission
          </Link>
        </div>
      </div>
      {runs.length === 0 ? (
        <p>
          No runs yet. <Link href="/submit">Submit dev or test predictions</Link>; each scored run appears here with its primary metric.
        </p>
      ) : (
        <>
          {series.length > 0 && <RunHistoryChart series={series} title="Primary metric of your runs over time" />}
          <div className="space-y-3">
            <TableShell
              caption="Your runs, newest first"
              testId="runs-table"
              scrollClassName="overflow-x-auto"
              captionClassName={HIDDEN_CAPTION_CLASS}
              head={
                <>
                  <th scope="col">Submitted (UTC)</th>
                  <th scope="col">File</th>
                  <th scope="col">Split</th>
                  <th scope="col">Track</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="text-right">
                    Primary (%)
                  </th>
                  <th scope="col">Note</th>
                  <th scope="col">Earlier</th>
                  <th scope="col">Newer</th>
                </>
              }
            >
              {runs.map((run) => {
                const canCompare = run.split === "dev" && run.status === "SCORED";
                return (
                  <tr key={run.id} className="border-b border-line" data-testid="run-row">
                    <td className="whitespace-nowrap">{formatDateTime(run.createdAt)}</td>
                    <th scope="row">
                      <Link href={`/submissions/${run.id}`}>{run.originalName}</Link>
                      {canCompare && (
                        <Link href={`/submissions/${run.id}/samples`} className="ml-2 text-xs">
                          samples
                        </Link>
                      )}
                    </th>
                    <td>{run.split}</td>
                    <td>{run.track}</td>
                    <td>{run.status.toLowerCase()}</td>
                    <td className="text-right">{formatPercent(run.primary)}</td>
                    <td>
                      <NoteEditor submissionId={run.id} initial={run.note} label={`Note on ${run.originalName} (${formatDateTime(run.createdAt)})`} />
                    </td>
                    <td className="text-center">
                      {canCompare && <input type="radio" form={COMPARE_FORM} name="old" value={run.id} aria-label={`Earlier run: ${run.originalName}`} />}
                    </td>
                    <td className="text-center">
                      {canCompare && <input type="radio" form={COMPARE_FORM} name="new" value={run.id} aria-label={`Newer run: ${run.originalName}`} />}
                    </td>
                  </tr>
                );
              })}
            </TableShell>
            {/* The radios above belong to this form (form attribute): the note editors are forms of their own. */}
            {devRuns.length >= 2 && (
              <form id={COMPARE_FORM} method="get" action="/submissions/compare" aria-label="Compare two dev runs">
                <button type="submit" className="rounded bg-accent px-3 py-2 text-sm text-white">
                  Compare the two chosen dev runs
                </button>
              </form>
            )}
          </div>
          <p className="text-sm text-muted">
            Test numbers are rounded overall metrics (protocol section 12). Dev runs of one track can be compared sample by sample.
          </p>
        </>
      )}
    </div>
  );
}
