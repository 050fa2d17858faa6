import { linearAxis } from "@/lib/charts/axis-ticks";
import { formatDecimal } from "@/lib/format/numbers";
import { BarChartSvg } from "./bar-chart-svg";

export type TypeDifferenceBar = { type: string; difference: number | null };

/** Per-type differences (A - B, percentage points): above the zero line (green) where A is ahead, below (red) where B is. */
export function TypeDifferenceChart({ bars, title, unit, axisLabel }: { bars: TypeDifferenceBar[]; title: string; unit: string; axisLabel: string }) {
  const values = bars.flatMap((bar) => (bar.difference === null ? [] : [bar.difference]));
  const axis = linearAxis(Math.min(0, ...values), Math.max(0, ...values, 1), 5);
  const categories = bars.map((bar) => ({
    label: bar.type,
    pieces:
      bar.difference === null
        ? []
        : [{ from: 0, to: bar.difference, color: bar.difference >= 0 ? "#15803d" : "#b91c1c", title: `${bar.type}: ${formatDecimal(bar.difference, 1)} ${unit}` }],
  }));
  return (
    <figure role="group" aria-label={title} className="w-full">
      <figcaption className="mb-1 text-sm font-medium">{title}</figcaption>
      <BarChartSvg label={title} categories={categories} axis={axis} yLabel={axisLabel} zeroLine />
    </figure>
  );
}
