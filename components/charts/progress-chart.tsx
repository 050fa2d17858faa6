"use client";

import { CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Scatter, Tooltip, XAxis, YAxis } from "recharts";
import { formatDecimal } from "@/lib/format/numbers";

/** One drawn point: its day (ms since the epoch, UTC midnight), its value in percent and what it is. */
export type ProgressChartPoint = { time: number; value: number; system: string; status: string; label: string };
export type ProgressChartSeries = { key: string; label: string; color: string; shape: "star" | "circle" | "diamond" | "triangle" | "cross"; points: ProgressChartPoint[] };

const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

const MAX_TICKS = 8;

/** The days that have points, thinned evenly to at most MAX_TICKS (first and last kept). */
function dayTicks(times: readonly number[]): number[] {
  const days = [...new Set(times)].sort((a, b) => a - b);
  if (days.length <= MAX_TICKS) return days;
  const step = (days.length - 1) / (MAX_TICKS - 1);
  return Array.from({ length: MAX_TICKS }, (_, index) => days[Math.round(index * step)] ?? 0);
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
  const ticks = dayTicks(series.flatMap((item) => item.points.map((point) => point.time)));
  return (
    <figure role="group" aria-label={title} className="h-80 w-full">
      <figcaption className="sr-only">{title}</figcaption>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart accessibilityLayer={false} margin={{ top: 10, right: 20, bottom: 30, left: 10 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="time" type="number" scale="time" domain={["dataMin - 86400000", "dataMax + 86400000"]} ticks={ticks} tickFormatter={(time: number) => dayOf(time)} />
          <YAxis domain={[0, 100]} unit="%" />
          <Tooltip content={<PointTooltip />} />
          <Legend verticalAlign="top" />
          <Line data={line} dataKey="best" name="Best tested score" type="stepAfter" stroke="#475569" dot={false} isAnimationActive={false} />
          {series.map((item) => (
            <Scatter key={item.key} data={item.points} dataKey="value" name={item.label} fill={item.color} shape={item.shape} isAnimationActive={false} />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}
