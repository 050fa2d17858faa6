"use client";

import { CartesianGrid, ErrorBar, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartFrame } from "./chart-frame";

export type HitAtKPoint = { k: string; value: number; error?: [number, number] };

/** Hit@K for K = 1, 3, 5, 10 with 95% interval bars: how often the gold entity is in the top K. */
export function HitAtKChart({ points, title }: { points: HitAtKPoint[]; title: string }) {
  return (
    <figure role="group" aria-label={title} className="w-full">
      <figcaption className="mb-1 text-sm font-medium">{title}</figcaption>
      <ChartFrame className="h-72 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart accessibilityLayer={false} data={points} margin={{ top: 10, right: 20, bottom: 20, left: 10 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="k" label={{ value: "K", position: "insideBottom", offset: -10 }} />
            <YAxis domain={[0, 100]} label={{ value: "Hit@K (%)", angle: -90, position: "insideLeft", offset: 0 }} />
            <Tooltip formatter={(value) => [`${String(value)}%`, "Hit@K"]} />
            <Line type="monotone" dataKey="value" stroke="#0d9488" strokeWidth={2} dot={{ r: 4 }} name="Hit@K" isAnimationActive={false}>
              <ErrorBar dataKey="error" width={6} strokeWidth={1.5} stroke="#111827" direction="y" />
            </Line>
          </LineChart>
        </ResponsiveContainer>
      </ChartFrame>
    </figure>
  );
}
