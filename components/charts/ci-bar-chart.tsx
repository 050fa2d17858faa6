import { linearAxis } from "@/lib/charts/axis-ticks";
import { formatDecimal } from "@/lib/format/numbers";
import { BarChartSvg, type BarCategory } from "./bar-chart-svg";

/** One bar: a value with the distances from it to the ends of its 95% interval. */
export type CiBar = {
  label: string;
  value: number | null;
  /** [value - low, high - value]; absent when the bar has no interval. */
  error?: [number, number];
  /** Shown in the hover title (for example "n = 2,076, 95% CI [37.5, 40.3]"). */
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

/** Bars with 95% confidence-interval error bars (per entity type, or per tier), drawn on the server. */
export function CiBarChart({ bars, title, valueLabel, max, color = "#1d4ed8" }: Props) {
  const axis = linearAxis(0, max, 5, [0, max]);
  const digits = max > 1 ? 1 : 3;
  const categories: BarCategory[] = bars.map((bar) => ({
    label: bar.label,
    pieces:
      bar.value === null
        ? []
        : [{ from: 0, to: bar.value, color, title: `${bar.label}: ${formatDecimal(bar.value, digits)}${bar.note ? ` (${bar.note})` : ""}` }],
    ...(bar.value !== null && bar.error ? { interval: [bar.value - bar.error[0], bar.value + bar.error[1]] as [number, number] } : {}),
  }));
  return (
    <figure role="group" aria-label={title} className="w-full">
      <figcaption className="mb-1 text-sm font-medium">{title}</figcaption>
      <BarChartSvg label={title} categories={categories} axis={axis} yLabel={valueLabel} />
    </figure>
  );
}
