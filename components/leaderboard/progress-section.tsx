import Link from "next/link";
import { describeVerdict } from "@/lib/core/leaderboard/describe-verdict";
import { ProgressChart, type ProgressChartSeries } from "@/components/charts/progress-chart";
import { ENTITY_TYPES } from "@/lib/core/dataset/release-schema";
import { formatPercent } from "@/lib/core/format/numbers";
import { roundTo } from "@/lib/core/format/round";
import { describeProgressStatus, describeSotaRule, type ProgressPoint, type ProgressStatus } from "@/lib/core/leaderboard/progress";
import type { ProgressView } from "@/lib/core/leaderboard/progress-view";
import { progressHref } from "@/lib/core/leaderboard/view-links";
import { LEADERBOARD_TRACKS, METRIC_LABELS, TRACK_LABELS } from "@/lib/core/leaderboard/views";
import { TableShell } from "@/components/ui/table-shell";

// One series per status, each with its own shape (the legend reads without colour). The legend
// only says "significantly better" of points that were tested against the state of the art
// (protocol section 13); the first tested entry opens the timeline without a test.
const SERIES: { status: ProgressStatus; label: string; color: string; shape: ProgressChartSeries["shape"]; isHollow?: boolean }[] = [
  { status: "first", label: "First tested entry (opens the timeline, no earlier entry to test against)", color: "#0d9488", shape: "star", isHollow: true },
  { status: "sota", label: "New state of the art (tested: significantly better)", color: "#0d9488", shape: "star" },
  { status: "not-significant", label: "Higher (tested: not significantly better)", color: "#b45309", shape: "diamond" },
  { status: "not-higher", label: "Not above the state of the art (no test needed)", color: "#64748b", shape: "circle" },
  { status: "untested", label: "Not tested (scored against other gold)", color: "#64748b", shape: "cross" },
  { status: "reported", label: "Reported in a paper (no outcomes, not tested)", color: "#7c3aed", shape: "triangle" },
];

const STATUS_LABELS: Record<ProgressStatus, string> = {
  first: "State of the art (first)",
  sota: "New state of the art",
  "not-significant": "Not significantly better",
  "not-higher": "Not above the state of the art",
  reported: "Reported",
  untested: "Not tested",
};

const KIND_LABELS: Record<ProgressPoint["kind"], string> = { submission: "entry", baseline: "baseline", reported: "reported" };

function timeOf(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

/** A disclosed rate in percent, as the chart draws it: rounded, so 0.286 travels as 28.6, not 28.599999999999998 (section 12's digits). */
const percentOf = (rate: number) => roundTo(rate * 100, 2);

function chartData(points: readonly ProgressPoint[]) {
  const line = points.filter((point) => point.best !== null).map((point) => ({ time: timeOf(point.date), best: percentOf(point.best ?? 0) }));
  const series = SERIES.map((item) => ({
    key: item.status,
    label: item.label,
    color: item.color,
    shape: item.shape,
    isHollow: item.isHollow,
    points: points
      .filter((point) => point.status === item.status)
      .map((point) => ({ time: timeOf(point.date), value: percentOf(point.value), system: point.system, status: point.status, label: describeProgressStatus(point) })),
  })).filter((item) => item.points.length > 0);
  return { line, series };
}

function pillClass(isCurrent: boolean): string {
  return `inline-block rounded border px-3 py-1 no-underline ${isCurrent ? "border-accent bg-accent text-white" : "border-line bg-white hover:bg-slate-100"}`;
}

function Switchers({ view }: { view: ProgressView }) {
  return (
    <div className="space-y-2 text-sm">
      <nav aria-label="Track">
        <ul className="flex flex-wrap gap-2">
          {LEADERBOARD_TRACKS.map((track) => (
            <li key={track}>
              <Link href={progressHref(track, view.type)} aria-current={track === view.track ? "page" : undefined} className={pillClass(track === view.track)}>
                <span className={track === view.track ? "font-medium text-white" : "text-accent"}>{TRACK_LABELS[track]}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-label="Entity type">
        <ul className="flex flex-wrap items-center gap-2">
          <li className="font-medium">Entity type:</li>
          {[null, ...ENTITY_TYPES].map((type) => (
            <li key={type ?? "all"}>
              <Link href={progressHref(view.track, type)} aria-current={type === view.type ? "page" : undefined} className={pillClass(type === view.type)}>
                <span className={type === view.type ? "font-medium text-white" : "text-accent"}>{type ?? "All types"}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

function TestCell({ point }: { point: ProgressPoint }) {
  if (point.test === null) return <span className="text-muted">–</span>;
  return (
    <span>
      {describeVerdict(point.test, point.test.againstSystem)}
    </span>
  );
}

/** The timeline of one view: chart, then the same data as a table. */
export function ProgressSection({ view }: { view: ProgressView }) {
  const metric = METRIC_LABELS[view.metric];
  const scope = view.type === null ? "all entity types" : `${view.type} samples`;
  const title = `${TRACK_LABELS[view.track]}: best published ${metric} by date, ${scope}`;
  const { line, series } = chartData(view.points);
  return (
    <div className="space-y-6">
      <Switchers view={view} />
      <p className="max-w-3xl text-sm">{describeSotaRule()}</p>
      <p className="max-w-3xl text-sm" data-testid="slice-note">
        Entries and baselines are scored on the ranking slice of the test split (protocol §12);
        {view.points.some((point) => point.kind === "reported") || view.undatedReported.length > 0
          ? " reported results (from papers) are on the whole test split, so they are not strictly comparable with the rest."
          : " reported results, when a view has any, are on the whole test split."}
      </p>
      {view.unavailable !== null ? (
        <p role="status">{view.unavailable}</p>
      ) : view.points.length === 0 ? (
        <p role="status">No entry of this view is published yet, so there is no timeline.</p>
      ) : (
        <>
          <ProgressChart title={title} line={line} series={series} />
          <TableShell
            caption={<>{title}: every point of the chart</>}
            label={`${title} (table)`}
            captionClassName="text-left font-medium"
            headClassName=""
            head={
              <>
                <th scope="col" className="text-left">Date</th>
                <th scope="col" className="text-left">System</th>
                <th scope="col" className="text-left">Kind</th>
                <th scope="col" className="text-right">{metric}</th>
                <th scope="col" className="text-right">Best so far</th>
                <th scope="col" className="text-left">Status</th>
                <th scope="col" className="text-left">Test against the state of the art</th>
              </>
            }
          >
            {view.points.map((point) => (
              <tr key={point.id} data-status={point.status}>
                <td>{point.date}</td>
                <td>{point.kind === "reported" ? point.system : <Link href={`/entries/${point.id}`}>{point.system}</Link>}</td>
                <td>{KIND_LABELS[point.kind]}</td>
                <td className="text-right tabular-nums">{formatPercent(point.value)}</td>
                <td className="text-right tabular-nums">{point.best === null ? "–" : formatPercent(point.best)}</td>
                <td title={describeProgressStatus(point)}>{STATUS_LABELS[point.status]}</td>
                <td>
                  <TestCell point={point} />
                </td>
              </tr>
            ))}
          </TableShell>
        </>
      )}
      {view.undatedReported.length > 0 && (
        <p className="text-sm">
          Reported results without a paper date (not drawn):{" "}
          {view.undatedReported.map((result) => `${result.system} (${formatPercent(result.value)})`).join("; ")}.
        </p>
      )}
      <p className="text-sm">
        The same data as JSON:{" "}
        <a href={`/api/leaderboard/progress?track=${view.track}${view.type === null ? "" : `&type=${encodeURIComponent(view.type)}`}`}>
          /api/leaderboard/progress
        </a>
        .
      </p>
    </div>
  );
}
