"use client";

import { Bar, BarChart, CartesianGrid, ErrorBar, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartFrame } from "./chart-frame";

/** One bar: a value with the distances from it to the ends of its 95% interval (recharts' ErrorBar convention). */
export type CiBar = {
  label: string;
  value: number | null;
  /** [value - low, high - value]; absent when the bar has no interval. */
  error?: [number, number];
  /** Shown in the tooltip (for example "n = 2,076" or "[37.5, 40.3]"). */
  note?: string;
};

type Props = {
  bars: CiBar[];
  /** The figure's accessible name and caption. */
  title: string;
  /** What the bars measure ("Alias accuracy (%)"). */
  valueLabel: string;
  /** Upper end of the axis (100 for percentages, 1 for MRR). */
  max: number;
  color?: string;
};

/** Bars with 95% confidence-interval error bars (per entity type, or per tier). */
export function CiBarChart({ bars, title, valueLabel, max, color = "#1d4ed8" }: Props) {
  return (
    <figure role="group" aria-label={title} className="w-full">
      <figcaption className="mb-1 text-sm font-medium">{title}</figcaption>
      <ChartFrame className="h-72 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart accessibilityLayer={false} data={bars} margin={{ top: 10, right: 10, bottom: 30, left: 10 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="label" interval={0} angle={-20} textAnchor="end" height={50} />
            <YAxis domain={[0, max]} label={{ value: valueLabel, angle: -90, position: "insideLeft", offset: 0 }} />
            <Tooltip formatter={(value, _name, item) => [`${String(value)}${item.payload?.note ? ` ${String(item.payload.note)}` : ""}`, valueLabel]} />
            <Bar dataKey="value" fill={color} name={valueLabel} isAnimationActive={false}>
              <ErrorBar dataKey="error" width={6} strokeWidth={1.5} stroke="#111827" direction="y" />
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </ChartFrame>
    </figure>
  );
}
