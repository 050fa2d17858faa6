import { linearAxis, ONE_DAY_MS, percentAlong, pixelsDown, timeAxis } from "@/lib/charts/axis-ticks";
import { formatDate } from "@/lib/format/dates";
import { formatDecimal, formatTick } from "@/lib/format/numbers";
import { ChartFrame, ChartLegend, Marker, pct, type MarkerShape } from "./chart-frame";

/** One drawn point: its day (ms since the epoch, UTC midnight), its value in percent and what it is. */
export type ProgressChartPoint = { time: number; value: number; system: string; status: string; label: string };
export type ProgressChartSeries = { key: string; label: string; color: string; shape: MarkerShape; isHollow?: boolean; points: ProgressChartPoint[] };

const HEIGHT = 240;
const MAX_DAY_GAPS = 4;
const LINE_COLOR = "#475569";
/** Points of one day sit side by side, this many pixels apart, instead of on top of each other. */
const DODGE_PX = 11;

type Placed = { series: ProgressChartSeries; point: ProgressChartPoint; dx: number };

/** Every point with its sideways offset: the points of one day spread around the day, lowest value first. */
function placePoints(series: readonly ProgressChartSeries[]): Placed[] {
  const byDay = new Map<number, Placed[]>();
  for (const item of series) {
    for (const point of item.points) {
      const day = byDay.get(point.time) ?? [];
      day.push({ series: item, point, dx: 0 });
      byDay.set(point.time, day);
    }
  }
  return [...byDay.values()].flatMap((day) => {
    const sorted = [...day].sort((a, b) => a.point.value - b.point.value || a.point.system.localeCompare(b.point.system, "en"));
    return sorted.map((placed, index) => ({ ...placed, dx: (index - (sorted.length - 1) / 2) * DODGE_PX }));
  });
}

/**
 * The best tested score by date (a step line) and every entry as a point, one
 * series per status, drawn on the server. The legend lists only the series
 * drawn; the table under the chart holds the same data for screen readers.
 */
export function ProgressChart({ title, line, series }: { title: string; line: { time: number; best: number }[]; series: ProgressChartSeries[] }) {
  const times = series.flatMap((item) => item.points.map((point) => point.time));
  const values = [...series.flatMap((item) => item.points.map((point) => point.value)), ...line.map((step) => step.best)];
  // A day's margin on each side, so no point sits on the frame.
  const xAxis = timeAxis(Math.min(...times) - ONE_DAY_MS, Math.max(...times) + ONE_DAY_MS, MAX_DAY_GAPS, ONE_DAY_MS);
  const yAxis = linearAxis(Math.min(...values), Math.max(...values), 5, [0, 100]);
  const x = (time: number) => percentAlong(time, xAxis.domain);
  const y = (value: number) => pixelsDown(value, yAxis.domain, HEIGHT);
  const legend = [
    ...(line.length > 0 ? [{ key: "best", label: "Best tested score", color: LINE_COLOR, hasLine: true }] : []),
    ...series.map((item) => ({ key: item.key, label: item.label, color: item.color, shape: item.shape, isHollow: item.isHollow })),
  ];
  return (
    <figure role="group" aria-label={title} className="w-full space-y-2" data-testid="progress-chart">
      <figcaption className="sr-only">{title}</figcaption>
      <ChartLegend items={legend} testId="progress-legend" />
      <ChartFrame
        label={title}
        height={HEIGHT}
        margin={{ top: 12, right: 40, bottom: 36, left: 52 }}
        yTicks={yAxis.ticks.map((tick) => ({ y: y(tick), label: formatTick(tick, yAxis.step) }))}
        yLabel="Score (%)"
        xTicks={xAxis.ticks.map((tick) => ({ x: x(tick), lines: [formatDate(new Date(tick))] }))}
        xGrid={xAxis.ticks.map(x)}
      >
        {line.map((step, index) => {
          const next = line[index + 1];
          if (next === undefined) return null;
          return (
            <g key={index} stroke={LINE_COLOR} strokeWidth={1.5}>
              <line x1={pct(x(step.time))} x2={pct(x(next.time))} y1={y(step.best)} y2={y(step.best)} />
              {next.best !== step.best && <line x1={pct(x(next.time))} x2={pct(x(next.time))} y1={y(step.best)} y2={y(next.best)} />}
            </g>
          );
        })}
        {placePoints(series).map(({ series: item, point, dx }) => (
          <Marker
            key={`${item.key}-${point.system}-${point.time}-${dx}`}
            x={x(point.time)}
            y={y(point.value)}
            dx={dx}
            shape={item.shape}
            color={item.color}
            isHollow={item.isHollow}
            series={item.key}
            title={`${point.system}, ${formatDate(new Date(point.time))}: ${formatDecimal(point.value, 1)}% (${point.label})`}
          />
        ))}
      </ChartFrame>
    </figure>
  );
}
