import { linearAxis } from "@/lib/charts/axis-ticks";
import { formatCount } from "@/lib/format/numbers";
import { BarChartSvg } from "./bar-chart-svg";
import { ChartLegend } from "./chart-frame";

export type TypeSplitRow = { type: string; train: number; dev: number; test: number };

const SPLITS = [
  { key: "train", color: "#1d4ed8" },
  { key: "dev", color: "#0d9488" },
  { key: "test", color: "#b45309" },
] as const;

/** Samples per entity type, stacked by split (train at the bottom, as the legend reads), drawn on the server. */
export function TypeSplitChart({ rows, title }: { rows: TypeSplitRow[]; title: string }) {
  const axis = linearAxis(0, Math.max(5, ...rows.map((row) => row.train + row.dev + row.test)), 5, [0, Number.POSITIVE_INFINITY]);
  const categories = rows.map((row) => {
    let from = 0;
    return {
      label: row.type,
      pieces: SPLITS.map((split) => {
        const piece = { from, to: from + row[split.key], color: split.color, series: split.key, title: `${row.type}, ${split.key}: ${formatCount(row[split.key])} samples` };
        from = piece.to;
        return piece;
      }),
    };
  });
  return (
    <figure role="group" aria-label={title} className="w-full space-y-2">
      <figcaption className="sr-only">{title}</figcaption>
      <ChartLegend items={SPLITS.map((split) => ({ key: split.key, label: split.key, color: split.color, shape: "square" }))} />
      <p className="text-xs text-muted">Each bar is stacked from the bottom in the legend&apos;s order.</p>
      <BarChartSvg label={title} categories={categories} axis={axis} yLabel="Samples" height={240} />
    </figure>
  );
}
