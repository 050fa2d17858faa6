import { categoryBand, pixelsDown, type Axis } from "@/lib/charts/axis-ticks";
import { formatTick } from "@/lib/format/numbers";
import { ChartFrame, pct, VerticalErrorBar } from "./chart-frame";

/** One piece of a bar, from one value to another on the y axis (a stacked bar has several). */
export type BarPiece = { from: number; to: number; color: string; title: string; series?: string };
/** One category: its pieces (none when it has no value) and an optional 95% interval. */
export type BarCategory = { label: string; pieces: BarPiece[]; interval?: [number, number] };

const MARGIN = { top: 10, right: 12, bottom: 78, left: 52 };

/** Bars per category on a numeric y axis, drawn on the server (chart-frame.tsx). */
export function BarChartSvg({ label, categories, axis, yLabel, height = 200, zeroLine = false }: { label: string; categories: readonly BarCategory[]; axis: Axis; yLabel?: string; height?: number; zeroLine?: boolean }) {
  const y = (value: number) => pixelsDown(value, axis.domain, height);
  return (
    <ChartFrame
      label={label}
      height={height}
      margin={MARGIN}
      yTicks={axis.ticks.map((tick) => ({ y: y(tick), label: formatTick(tick, axis.step) }))}
      yLabel={yLabel}
      xCategories={categories.map((category, index) => ({ x: categoryBand(index, categories.length).center, label: category.label }))}
    >
      {zeroLine && <line x1="0%" x2="100%" y1={y(0)} y2={y(0)} stroke="#111827" />}
      {categories.map((category, index) => {
        const band = categoryBand(index, categories.length);
        const width = band.width * 0.6;
        return (
          <g key={category.label}>
            {category.pieces.map((piece, pieceIndex) => {
              const top = y(Math.max(piece.from, piece.to));
              const bottom = y(Math.min(piece.from, piece.to));
              return (
                <rect
                  key={pieceIndex}
                  x={pct(band.start + (band.width - width) / 2)}
                  width={pct(width)}
                  y={top}
                  height={Math.max(0, bottom - top)}
                  fill={piece.color}
                  data-mark="bar"
                  data-series={piece.series}
                >
                  <title>{piece.title}</title>
                </rect>
              );
            })}
            {category.interval !== undefined && <VerticalErrorBar x={band.center} top={y(category.interval[1])} bottom={y(category.interval[0])} />}
          </g>
        );
      })}
    </ChartFrame>
  );
}
