"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartFrame } from "./chart-frame";

export type ErrorClassBar = { label: string; count: number };

/** Samples per error class of one submission (docs/scoring.md, "Error classes"). */
export function ErrorClassChart({ bars, title }: { bars: ErrorClassBar[]; title: string }) {
  return (
    <figure role="group" aria-label={title} className="w-full">
      <figcaption className="sr-only">{title}</figcaption>
      <ChartFrame className="h-64 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={bars} margin={{ top: 10, right: 10, bottom: 30, left: 10 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="label" interval={0} angle={-15} textAnchor="end" height={50} />
          <YAxis allowDecimals={false} />
          <Tooltip />
          <Bar dataKey="count" name="samples" fill="#0d9488" />
        </BarChart>
      </ResponsiveContainer>
      </ChartFrame>
    </figure>
  );
}
