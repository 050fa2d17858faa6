"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartFrame } from "./chart-frame";

export type TypeSplitRow = { type: string; train: number; dev: number; test: number };

const COLORS = { train: "#1d4ed8", dev: "#0d9488", test: "#b45309" } as const;

/** Samples per entity type, stacked by split. */
export function TypeSplitChart({ rows, title }: { rows: TypeSplitRow[]; title: string }) {
  return (
    <figure role="group" aria-label={title} className="w-full">
      <figcaption className="sr-only">{title}</figcaption>
      <ChartFrame className="h-80 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={rows} margin={{ top: 10, right: 10, bottom: 30, left: 10 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="type" interval={0} angle={-20} textAnchor="end" height={50} />
          <YAxis allowDecimals={false} />
          <Tooltip />
          <Legend verticalAlign="top" />
          <Bar dataKey="train" stackId="split" fill={COLORS.train} name="train" />
          <Bar dataKey="dev" stackId="split" fill={COLORS.dev} name="dev" />
          <Bar dataKey="test" stackId="split" fill={COLORS.test} name="test" />
        </BarChart>
      </ResponsiveContainer>
      </ChartFrame>
    </figure>
  );
}
