"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatDecimal } from "@/lib/format/numbers";

/** One point per scored run: its time (ms since the epoch) and its primary metric in percent. */
export type RunPoint = { time: number; value: number; file: string };
export type RunSeries = { key: string; label: string; points: RunPoint[] };

const COLORS = ["#0d9488", "#1d4ed8", "#b45309", "#7c3aed"];

const dateOf = (time: number) => new Date(time).toISOString().slice(0, 16).replace("T", " ");

/** The primary metric of a participant's runs over time, one line per split and track. */
export function RunHistoryChart({ series, title }: { series: RunSeries[]; title: string }) {
  return (
    <figure role="group" aria-label={title} className="h-72 w-full">
      <figcaption className="sr-only">{title}</figcaption>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart accessibilityLayer={false} margin={{ top: 10, right: 20, bottom: 30, left: 10 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="time" type="number" scale="time" domain={["dataMin", "dataMax"]} tickFormatter={(time: number) => dateOf(time).slice(5)} />
          <YAxis domain={[0, 100]} unit="%" />
          <Tooltip labelFormatter={(time) => `${dateOf(Number(time))} UTC`} formatter={(value) => `${formatDecimal(Number(value), 1)}%`} />
          <Legend verticalAlign="top" />
          {series.map((line, index) => (
            <Line key={line.key} data={line.points} dataKey="value" name={line.label} stroke={COLORS[index % COLORS.length]} dot isAnimationActive={false} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
