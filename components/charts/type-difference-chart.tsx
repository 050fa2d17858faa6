"use client";

import { Bar, BarChart, CartesianGrid, Cell, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartFrame } from "./chart-frame";

export type TypeDifferenceBar = { type: string; difference: number | null };

/** Per-type differences (A - B, percentage points): green where A is ahead, red where B is. */
export function TypeDifferenceChart({ bars, title, unit, axisLabel }: { bars: TypeDifferenceBar[]; title: string; unit: string; axisLabel: string }) {
  return (
    <figure role="group" aria-label={title} className="w-full">
      <figcaption className="mb-1 text-sm font-medium">{title}</figcaption>
      <ChartFrame className="h-72 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart accessibilityLayer={false} data={bars} margin={{ top: 10, right: 10, bottom: 30, left: 10 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="type" interval={0} angle={-20} textAnchor="end" height={50} />
            <YAxis label={{ value: axisLabel, angle: -90, position: "insideLeft", offset: 0 }} />
            <ReferenceLine y={0} stroke="#111827" />
            <Tooltip formatter={(value) => [String(value), unit]} />
            <Bar dataKey="difference" name={unit} isAnimationActive={false}>
              {bars.map((bar) => (
                <Cell key={bar.type} fill={(bar.difference ?? 0) >= 0 ? "#15803d" : "#b91c1c"} />
              ))}
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </ChartFrame>
    </figure>
  );
}
