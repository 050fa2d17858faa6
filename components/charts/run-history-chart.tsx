"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartFrame } from "./chart-frame";
import { timeAxis } from "@/lib/core/format/axis-ticks";
import { formatDateTime, formatTimeTick } from "@/lib/core/format/dates";
import { formatDecimal } from "@/lib/core/format/numbers";

/** One point per scored run: its time (ms since the epoch) and its primary metric in percent. */
export type RunPoint = { time: number; value: number; file: string };
export type RunSeries = { key: string; label: string; points: RunPoint[] };

const COLORS = ["#0d9488", "#1d4ed8", "#b45309", "#7c3aed"];

/** At most this many gaps between time ticks: two-line labels stay apart on a 390 px phone. */
const MAX_TIME_GAPS = 3;

type TimeTickProps = { x?: number | string; y?: number | string; payload?: { value?: number } };

/** A time tick as lines: the UTC day, and under it the time of day when ticks are less than a day apart. */
function timeTick(step: number) {
  function TimeTick({ x, y, payload }: TimeTickProps) {
    if (payload?.value === undefined) return null;
    return (
      <text x={Number(x)} y={Number(y) + 4} textAnchor="middle" fontSize={11} fill="#374151" className="chart-x-tick">
        {formatTimeTick(payload.value, step).map((line, index) => (
          <tspan key={index} x={Number(x)} dy={index === 0 ? "0.71em" : "1.2em"}>
            {line}
          </tspan>
        ))}
      </text>
    );
  }
  return TimeTick;
}

/** The primary metric of a participant's runs over time, one line per split and track. */
export function RunHistoryChart({ series, title }: { series: RunSeries[]; title: string }) {
  const times = series.flatMap((line) => line.points.map((point) => point.time));
  const xAxis = timeAxis(Math.min(...times), Math.max(...times), MAX_TIME_GAPS);
  const TimeTick = timeTick(xAxis.step);
  return (
    <figure role="group" aria-label={title} className="w-full" data-testid="run-history-chart">
      <figcaption className="sr-only">{title}</figcaption>
      <ChartFrame className="h-72 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart accessibilityLayer={false} margin={{ top: 10, right: 20, bottom: 30, left: 10 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="time" type="number" scale="time" domain={xAxis.domain} ticks={xAxis.ticks} interval={0} height={40} tick={(props: TimeTickProps) => <TimeTick {...props} />} />
          <YAxis domain={[0, 100]} unit="%" />
          <Tooltip labelFormatter={(time) => formatDateTime(new Date(Number(time)))} formatter={(value) => `${formatDecimal(Number(value), 1)}%`} />
          <Legend verticalAlign="top" />
          {series.map((line, index) => (
            <Line key={line.key} data={line.points} dataKey="value" name={line.label} stroke={COLORS[index % COLORS.length]} dot isAnimationActive={false} />
          ))}
        </LineChart>
      </ResponsiveContainer>
      </ChartFrame>
    </figure>
  );
}
