"use client";

import { CartesianGrid, ErrorBar, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import { ChartFrame } from "./chart-frame";
import { formatTick } from "@/lib/core/format/numbers";
import type { ForestPlotData, ForestPoint } from "@/lib/core/leaderboard/forest-plot-data";
import type { RowKind } from "@/lib/core/leaderboard/leaderboard-types";

// Each entry's name sits above its line, across the plot's whole width: 30 characters read whole on a 390 px phone.
const ROW_HEIGHT = 34;
const AXIS_HEIGHT = 64;
const NAME_AXIS_WIDTH = 4;
const NAME_ABOVE_LINE_PX = 10;

type Series = { kind: RowKind; label: string; color: string; shape: "circle" | "diamond"; isHollow: boolean };

// Baselines differ by colour and by shape, so the legend reads without colour too.
const SERIES: readonly Series[] = [
  { kind: "submission", label: "Submission (95% interval)", color: "#1d4ed8", shape: "circle", isHollow: false },
  { kind: "baseline", label: "Baseline (95% interval)", color: "#b45309", shape: "diamond", isHollow: false },
  { kind: "reported", label: "Reported in a paper (no interval)", color: "#475569", shape: "circle", isHollow: true },
];

const KIND_NAMES: Record<RowKind, string> = { submission: "submission", baseline: "baseline", reported: "reported" };

function LegendSwatch({ series }: { series: Series }) {
  return (
    <svg width="28" height="12" viewBox="0 0 28 12" aria-hidden="true" className="shrink-0">
      {!series.isHollow && <line x1="2" y1="6" x2="26" y2="6" stroke={series.color} strokeWidth="1.5" />}
      {series.shape === "diamond" ? (
        <path d="M14 1 L19 6 L14 11 L9 6 Z" fill={series.color} />
      ) : (
        <circle cx="14" cy="6" r="4" fill={series.isHollow ? "#ffffff" : series.color} stroke={series.color} strokeWidth="2" />
      )}
    </svg>
  );
}

type NameTickProps = { x?: number | string; y?: number | string; payload?: { value?: number } };

/** Each entry's name just above its line, inside the plot (a white halo keeps it readable over the grid); the full name is its SVG title. */
function nameTick(points: readonly ForestPoint[]) {
  const byPosition = new Map(points.map((point) => [point.position, point]));
  function NameTick({ x, y, payload }: NameTickProps) {
    const point = payload?.value === undefined ? undefined : byPosition.get(payload.value);
    if (point === undefined) return null;
    return (
      <text x={Number(x) + 8} y={Number(y) - NAME_ABOVE_LINE_PX} textAnchor="start" fontSize={11} fill="#111827" stroke="#ffffff" strokeWidth={3} paintOrder="stroke" className="forest-plot-name">
        <title>{point.system}</title>
        {point.shortName}
      </text>
    );
  }
  return NameTick;
}

function PointTooltip({ active, payload }: { active?: boolean; payload?: readonly { payload?: ForestPoint }[] }) {
  const point = payload?.[0]?.payload;
  if (!active || point === undefined) return null;
  return (
    <div className="rounded border border-line bg-white px-2 py-1 text-xs shadow">
      <p className="font-medium">{point.system}</p>
      <p>
        {point.label}
        {point.rank !== null ? ` · rank ${point.rank}` : ""} · {KIND_NAMES[point.kind]}
      </p>
    </div>
  );
}

/**
 * A forest plot of a leaderboard view: each entry's point estimate and 95%
 * interval on the rank metric, best first like the table. The numbers come
 * from lib/core/leaderboard/forest-plot-data.ts; this only draws them, and repeats
 * them in a data table for screen readers.
 */
// eslint-disable-next-line max-lines-per-function -- one recharts tree: axes, bars and labels must be siblings of one chart
export function ForestPlot({ data }: { data: ForestPlotData }) {
  const { points, title } = data;
  if (points.length === 0) return null;
  const NameTick = nameTick(points);
  const height = points.length * ROW_HEIGHT + AXIS_HEIGHT;
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
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label="Legend">
        {presentKinds.map((series) => (
          <li key={series.kind} className="flex items-center gap-1">
            <LegendSwatch series={series} />
            {series.label}
          </li>
        ))}
      </ul>
      <ChartFrame className="w-full" style={{ height }} note="The chart needs JavaScript; open Data below for every value.">
        <ResponsiveContainer width="100%" height="100%">
          <ScatterChart accessibilityLayer={false} margin={{ top: 8, right: 16, bottom: 24, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis
              type="number"
              dataKey="value"
              domain={data.domain}
              ticks={data.ticks}
              interval={0}
              tickFormatter={(value: number) => formatTick(value, data.step)}
              allowDataOverflow
              tick={{ fontSize: 12 }}
              label={{ value: data.axisLabel, position: "insideBottom", offset: -14, fontSize: 12 }}
            />
            <YAxis
              type="number"
              dataKey="position"
              domain={[-0.5, points.length - 0.5]}
              reversed
              ticks={points.map((point) => point.position)}
              interval={0}
              width={NAME_AXIS_WIDTH}
              tickLine={false}
              tick={(props: NameTickProps) => <NameTick {...props} />}
            />
            <Tooltip content={<PointTooltip />} cursor={false} />
            {presentKinds.map((series) => (
              <Scatter
                key={series.kind}
                name={series.label}
                data={points.filter((point) => point.kind === series.kind)}
                shape={series.shape}
                fill={series.isHollow ? "#ffffff" : series.color}
                stroke={series.color}
                strokeWidth={series.isHollow ? 2 : 0}
                isAnimationActive={false}
              >
                {!series.isHollow && <ErrorBar dataKey="error" direction="x" width={6} strokeWidth={1.5} stroke={series.color} />}
              </Scatter>
            ))}
          </ScatterChart>
        </ResponsiveContainer>
      </ChartFrame>
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
