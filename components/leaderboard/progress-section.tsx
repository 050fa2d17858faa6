import Link from "next/link";
import { describeVerdict } from "@/lib/leaderboard/describe-verdict";
import { ProgressChart, type ProgressChartSeries } from "@/components/charts/progress-chart";
import { ENTITY_TYPES } from "@/lib/dataset/release-schema";
import { formatPercent } from "@/lib/format/numbers";
import { describeProgressStatus, describeSotaRule, type ProgressPoint, type ProgressStatus } from "@/lib/progress/progress";
import type { ProgressView } from "@/lib/progress/progress-view";
import { progressHref } from "@/lib/leaderboard/view-links";
import { LEADERBOARD_TRACKS, METRIC_LABELS, TRACK_LABELS } from "@/lib/leaderboard/views";
import { TableShell } from "@/components/ui/table-shell";

const SERIES: { status: ProgressStatus[]; key: string; label: string; color: string; shape: ProgressChartSeries["shape"] }[] = [
  { status: ["first", "sota"], key: "sota", label: "State of the art (significant)", color: "#0d9488", shape: "star" },
  { status: ["not-significant"], key: "not-significant", label: "Higher, not significantly better", color: "#b45309", shape: "diamond" },
  { status: ["not-higher", "untested"], key: "other", label: "Other entries", color: "#94a3b8", shape: "circle" },
  { status: ["reported"], key: "reported", label: "Reported (paper, no outcomes)", color: "#7c3aed", shape: "triangle" },
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

function chartData(points: readonly ProgressPoint[]) {
  const line = points.filter((point) => point.best !== null).map((point) => ({ time: timeOf(point.date), best: (point.best ?? 0) * 100 }));
  const series = SERIES.map((item) => ({
    key: item.key,
    label: item.label,
    color: item.color,
    shape: item.shape,
    points: points
      .filter((point) => item.status.includes(point.status))
      .map((point) => ({ time: timeOf(point.date), value: point.value * 100, system: point.system, status: point.status, label: describeProgressStatus(point) })),
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
