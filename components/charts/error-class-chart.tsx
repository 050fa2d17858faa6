import { linearAxis } from "@/lib/charts/axis-ticks";
import { formatCount } from "@/lib/format/numbers";
import { BarChartSvg } from "./bar-chart-svg";

export type ErrorClassBar = { label: string; count: number };

/** Samples per error class of one submission (docs/scoring.md, "Error classes"), drawn on the server. */
export function ErrorClassChart({ bars, title }: { bars: ErrorClassBar[]; title: string }) {
  // At least 5 on the axis, so its step is a whole number of samples.
  const axis = linearAxis(0, Math.max(5, ...bars.map((bar) => bar.count)), 5, [0, Number.POSITIVE_INFINITY]);
  const categories = bars.map((bar) => ({
    label: bar.label,
    pieces: [{ from: 0, to: bar.count, color: "#0d9488", title: `${bar.label}: ${formatCount(bar.count)} samples` }],
  }));
  return (
    <figure role="group" aria-label={title} className="w-full">
      <figcaption className="sr-only">{title}</figcaption>
      <BarChartSvg label={title} categories={categories} axis={axis} yLabel="Samples" />
    </figure>
  );
}
