import { categoryBand, linearAxis, pixelsDown } from "@/lib/charts/axis-ticks";
import { formatDecimal, formatTick } from "@/lib/format/numbers";
import { ChartFrame, Marker, pct, VerticalErrorBar } from "./chart-frame";

export type HitAtKPoint = { k: string; value: number; error?: [number, number] };

const HEIGHT = 200;
const COLOR = "#0d9488";

/** Hit@K for K = 1, 3, 5, 10 with 95% interval bars: how often the gold entity is in the top K. Drawn on the server. */
export function HitAtKChart({ points, title }: { points: HitAtKPoint[]; title: string }) {
  const axis = linearAxis(0, 100, 5, [0, 100]);
  const y = (value: number) => pixelsDown(value, axis.domain, HEIGHT);
  const x = (index: number) => categoryBand(index, points.length).center;
  return (
    <figure role="group" aria-label={title} className="w-full">
      <figcaption className="mb-1 text-sm font-medium">{title}</figcaption>
      <ChartFrame
        label={title}
        height={HEIGHT}
        margin={{ top: 10, right: 12, bottom: 40, left: 52 }}
        yTicks={axis.ticks.map((tick) => ({ y: y(tick), label: formatTick(tick, axis.step) }))}
        yLabel="Hit@K (%)"
        xTicks={points.map((point, index) => ({ x: x(index), lines: [point.k] }))}
        xLabel="K"
      >
        {points.slice(1).map((point, index) => (
          <line key={`l${point.k}`} x1={pct(x(index))} x2={pct(x(index + 1))} y1={y(points[index]?.value ?? 0)} y2={y(point.value)} stroke={COLOR} strokeWidth={2} />
        ))}
        {points.map((point, index) =>
          point.error ? <VerticalErrorBar key={`e${point.k}`} x={x(index)} top={y(point.value + point.error[1])} bottom={y(point.value - point.error[0])} /> : null,
        )}
        {points.map((point, index) => (
          <Marker key={point.k} x={x(index)} y={y(point.value)} shape="circle" color={COLOR} title={`Hit@${point.k}: ${formatDecimal(point.value, 1)}%`} />
        ))}
      </ChartFrame>
    </figure>
  );
}
