import { percentAlong } from "@/lib/charts/axis-ticks";
import { formatTick } from "@/lib/format/numbers";
import type { ForestPlotData, ForestPoint } from "@/lib/leaderboard/forest-plot-data";
import type { RowKind } from "@/lib/leaderboard/leaderboard-types";
import { At, ChartFrame, ChartLegend, Marker, pct } from "./chart-frame";

const ROW_HEIGHT = 32;
const NAME_FONT_PX = 11;
const MARGIN = { top: 4, right: 20, bottom: 40, left: 16 };

type Series = { kind: RowKind; label: string; color: string; shape: "circle" | "diamond"; isHollow: boolean };

// Baselines differ by colour and by shape, so the legend reads without colour too.
const SERIES: readonly Series[] = [
  { kind: "submission", label: "Submission (95% interval)", color: "#1d4ed8", shape: "circle", isHollow: false },
  { kind: "baseline", label: "Baseline (95% interval)", color: "#b45309", shape: "diamond", isHollow: false },
  { kind: "reported", label: "Reported in a paper (no interval)", color: "#475569", shape: "circle", isHollow: true },
];

const KIND_NAMES: Record<RowKind, string> = { submission: "submission", baseline: "baseline", reported: "reported" };

/** Each entry's line: its name on top, its point and interval under it, across the plot's whole width (room for 30 characters on a phone). */
const rowTop = (position: number) => position * ROW_HEIGHT;
const lineY = (position: number) => rowTop(position) + ROW_HEIGHT - 9;

/** The entry's name above its line; the full name is its SVG title. A white halo keeps it readable over the grid. */
function NameLabel({ point }: { point: ForestPoint }) {
  return (
    <text x={4} y={rowTop(point.position) + 12} fontSize={NAME_FONT_PX} fill="#111827" stroke="#ffffff" strokeWidth={3} paintOrder="stroke" className="forest-plot-name">
      <title>{point.system}</title>
      {point.shortName}
    </text>
  );
}

function PointMark({ point, series, domain }: { point: ForestPoint; series: Series; domain: [number, number] }) {
  const x = (value: number) => percentAlong(Math.min(domain[1], Math.max(domain[0], value)), domain);
  const y = lineY(point.position);
  const rank = point.rank !== null ? `, rank ${point.rank}` : "";
  return (
    <g>
      {point.error !== null && !series.isHollow && (
        <g stroke={series.color} strokeWidth={1.5}>
          <line x1={pct(x(point.value - point.error[0]))} x2={pct(x(point.value + point.error[1]))} y1={y} y2={y} />
          <At x={x(point.value - point.error[0])} y={y}>
            <line x1={0} x2={0} y1={-4} y2={4} />
          </At>
          <At x={x(point.value + point.error[1])} y={y}>
            <line x1={0} x2={0} y1={-4} y2={4} />
          </At>
        </g>
      )}
      <Marker x={x(point.value)} y={y} shape={series.shape} color={series.color} isHollow={series.isHollow} series={series.kind} title={`${point.system}: ${point.label}${rank} (${KIND_NAMES[point.kind]})`} />
    </g>
  );
}

/**
 * A forest plot of a leaderboard view: each entry's point estimate and 95%
 * interval on the rank metric, best first like the table. The numbers come
 * from lib/leaderboard/forest-plot-data.ts; this only draws them, and repeats
 * them in a data table for screen readers.
 */
export function ForestPlot({ data }: { data: ForestPlotData }) {
  const { points, title } = data;
  if (points.length === 0) return null;
  const isCut = data.total > points.length;
  const presentKinds = SERIES.filter((series) => points.some((point) => point.kind === series.kind));
  return (
    <figure role="group" aria-label={title} data-testid="forest-plot" className="w-full min-w-0 space-y-2 rounded border border-line bg-white p-3">
      <figcaption className="text-sm font-medium">
        {title}
        {isCut && (
          <span className="ml-1 font-normal text-muted" data-testid="forest-plot-cut">
            (top {points.length} of {data.total} shown)
          </span>
        )}
      </figcaption>
      <ChartLegend items={presentKinds.map((series) => ({ key: series.kind, label: series.label, color: series.color, shape: series.shape, isHollow: series.isHollow, hasLine: !series.isHollow }))} />
      {/* The drawing repeats the data table below, so assistive technology reads the table. */}
      <div className="w-full min-w-0" aria-hidden="true">
          <ChartFrame
            isHidden
            height={points.length * ROW_HEIGHT}
            margin={MARGIN}
            xTicks={data.ticks.map((tick) => ({ x: percentAlong(tick, data.domain), lines: [formatTick(tick, data.step)] }))}
            xGrid={data.ticks.map((tick) => percentAlong(tick, data.domain))}
            xLabel={data.axisLabel}
            testId="forest-plot-svg"
          >
            {points.map((point) => {
              const series = SERIES.find((item) => item.kind === point.kind) ?? SERIES[0]!;
              return <PointMark key={point.key} point={point} series={series} domain={data.domain} />;
            })}
            {points.map((point) => (
              <NameLabel key={`n${point.key}`} point={point} />
            ))}
          </ChartFrame>
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer">Data</summary>
        <div tabIndex={0} className="mt-2 overflow-x-auto">
          <table className="min-w-full text-xs" data-testid="forest-plot-data">
            <caption className="text-left text-muted">{title}</caption>
            <thead>
              <tr className="border-b border-line">
                <th scope="col">Rank</th>
                <th scope="col">System</th>
                <th scope="col">Kind</th>
                <th scope="col" className="text-right">
                  {data.axisLabel} [95% CI]
                </th>
              </tr>
            </thead>
            <tbody>
              {points.map((point) => (
                <tr key={point.key} className="border-b border-line">
                  <td>{point.rank ?? "–"}</td>
                  <th scope="row" className="font-normal">
                    {point.system}
                  </th>
                  <td>{KIND_NAMES[point.kind]}</td>
                  <td className="text-right tabular-nums whitespace-nowrap">{point.label}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
