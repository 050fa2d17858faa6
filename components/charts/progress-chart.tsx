"use client";

import { CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Scatter, Tooltip, XAxis, YAxis } from "recharts";
import { ChartFrame } from "./chart-frame";
import { ONE_DAY_MS, timeAxis } from "@/lib/core/format/axis-ticks";
import { formatDate, formatTimeTick } from "@/lib/core/format/dates";
import { formatDecimal } from "@/lib/core/format/numbers";

/** One drawn point: its day (ms since the epoch, UTC midnight), its value in percent and what it is. */
export type ProgressChartPoint = { time: number; value: number; system: string; status: string; label: string };
export type ProgressChartSeries = { key: string; label: string; color: string; shape: "star" | "circle" | "diamond" | "triangle" | "cross"; isHollow?: boolean; points: ProgressChartPoint[] };

const dayOf = (time: number) => formatDate(new Date(time));

const MAX_DAY_GAPS = 4;
/** Points of one day sit side by side, this fraction of the axis apart, instead of on top of each other. */
const DODGE_FRACTION = 1 / 36;

type PlottedPoint = ProgressChartPoint & { x: number };

/** Every series' points with their x: the points of one day spread around the day, lowest value first. */
function spreadSameDay(series: readonly ProgressChartSeries[], span: number): PlottedPoint[][] {
  const byDay = new Map<number, ProgressChartPoint[]>();
  for (const point of series.flatMap((item) => item.points)) byDay.set(point.time, [...(byDay.get(point.time) ?? []), point]);
  const offset = new Map<ProgressChartPoint, number>();
  for (const day of byDay.values()) {
    const sorted = [...day].sort((a, b) => a.value - b.value || a.system.localeCompare(b.system, "en"));
    sorted.forEach((point, index) => offset.set(point, (index - (sorted.length - 1) / 2) * DODGE_FRACTION * span));
  }
  return series.map((item) => item.points.map((point) => ({ ...point, x: point.time + (offset.get(point) ?? 0) })));
}

type TooltipPayload = { payload?: ProgressChartPoint | { time: number; best: number } };

function PointTooltip({ active, payload }: { active?: boolean; payload?: readonly TooltipPayload[] }) {
  const point = payload?.map((item) => item.payload).find((item): item is ProgressChartPoint => item !== undefined && "system" in item);
  if (!active || point === undefined) return null;
  return (
    <div className="rounded border border-line bg-white p-2 text-xs shadow">
      <p className="font-medium">{point.system}</p>
      <p>
        {dayOf(point.time)}: {formatDecimal(point.value, 1)}%
      </p>
      <p>{point.label}</p>
    </div>
  );
}

/**
 * The best published score by date (a step line over tested entries) and every
 * entry as a point, one series per status. The table under it holds the same
 * data for screen readers and keyboard users.
 */
export function ProgressChart({ title, line, series }: { title: string; line: { time: number; best: number }[]; series: ProgressChartSeries[] }) {
  const times = series.flatMap((item) => item.points.map((point) => point.time));
  // A day's margin on each side, so no point sits on the frame; ticks a whole number of days apart, each a distinct day.
  const xAxis = timeAxis(Math.min(...times) - ONE_DAY_MS, Math.max(...times) + ONE_DAY_MS, MAX_DAY_GAPS, ONE_DAY_MS);
  const plotted = spreadSameDay(series, xAxis.domain[1] - xAxis.domain[0]);
  const stepLine = line.map((step) => ({ ...step, x: step.time }));
  return (
    <figure role="group" aria-label={title} className="w-full" data-testid="progress-chart">
      <figcaption className="sr-only">{title}</figcaption>
      <ChartFrame className="h-80 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart accessibilityLayer={false} margin={{ top: 10, right: 20, bottom: 30, left: 10 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="x" type="number" scale="time" domain={xAxis.domain} ticks={xAxis.ticks} interval={0} tickFormatter={(time: number) => formatTimeTick(time, xAxis.step).join(" ")} />
          <YAxis domain={[0, 100]} unit="%" />
          <Tooltip content={<PointTooltip />} />
          <Legend verticalAlign="top" />
          <Line data={stepLine} dataKey="best" name="Best tested score" type="stepAfter" stroke="#475569" dot={false} isAnimationActive={false} />
          {series.map((item, index) => (
            <Scatter key={item.key} data={plotted[index]} dataKey="value" name={item.label} fill={item.isHollow ? "#ffffff" : item.color} stroke={item.color} strokeWidth={item.isHollow ? 2 : 0} shape={item.shape} isAnimationActive={false} />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
      </ChartFrame>
    </figure>
  );
}
