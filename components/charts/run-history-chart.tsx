import { linearAxis, percentAlong, pixelsDown, timeAxis } from "@/lib/charts/axis-ticks";
import { formatDateTime, formatTimeTick } from "@/lib/format/dates";
import { formatDecimal, formatTick } from "@/lib/format/numbers";
import { ChartFrame, ChartLegend, Marker, pct, type MarkerShape } from "./chart-frame";

/** One point per scored run: its time (ms since the epoch) and its primary metric in percent. */
export type RunPoint = { time: number; value: number; file: string };
export type RunSeries = { key: string; label: string; points: RunPoint[] };

// Each line has its colour and its marker shape, so the legend reads without colour too.
const STYLES: { color: string; shape: MarkerShape }[] = [
  { color: "#0d9488", shape: "circle" },
  { color: "#1d4ed8", shape: "diamond" },
  { color: "#b45309", shape: "triangle" },
  { color: "#7c3aed", shape: "square" },
];

const HEIGHT = 200;
/** At most this many gaps between time ticks: two-line labels stay apart on a 390 px phone. */
const MAX_TIME_GAPS = 3;

/** The primary metric of a participant's runs over time, one line per split and track, drawn on the server. */
export function RunHistoryChart({ series, title }: { series: RunSeries[]; title: string }) {
  const times = series.flatMap((line) => line.points.map((point) => point.time));
  const xAxis = timeAxis(Math.min(...times), Math.max(...times), MAX_TIME_GAPS);
  const yAxis = linearAxis(0, 100, 5, [0, 100]);
  const x = (time: number) => percentAlong(time, xAxis.domain);
  const y = (value: number) => pixelsDown(value, yAxis.domain, HEIGHT);
  const styleOf = (index: number) => STYLES[index % STYLES.length] ?? STYLES[0]!;
  return (
    <figure role="group" aria-label={title} className="w-full space-y-2" data-testid="run-history-chart">
      <figcaption className="sr-only">{title}</figcaption>
      <ChartLegend items={series.map((line, index) => ({ key: line.key, label: line.label, ...styleOf(index), hasLine: true }))} />
      <ChartFrame
        label={title}
        height={HEIGHT}
        margin={{ top: 10, right: 40, bottom: 48, left: 52 }}
        yTicks={yAxis.ticks.map((tick) => ({ y: y(tick), label: formatTick(tick, yAxis.step) }))}
        yLabel="Primary metric (%)"
        xTicks={xAxis.ticks.map((tick) => ({ x: x(tick), lines: formatTimeTick(tick, xAxis.step) }))}
        xGrid={xAxis.ticks.map(x)}
      >
        {series.map((line, index) => {
          const style = styleOf(index);
          return (
            <g key={line.key}>
              {line.points.slice(1).map((point, pointIndex) => {
                const previous = line.points[pointIndex]!;
                return <line key={pointIndex} x1={pct(x(previous.time))} x2={pct(x(point.time))} y1={y(previous.value)} y2={y(point.value)} stroke={style.color} strokeWidth={2} />;
              })}
              {line.points.map((point, pointIndex) => (
                <Marker
                  key={pointIndex}
                  x={x(point.time)}
                  y={y(point.value)}
                  shape={style.shape}
                  color={style.color}
                  series={line.key}
                  title={`${point.file}, ${formatDateTime(new Date(point.time))}: ${formatDecimal(point.value, 1)}%`}
                />
              ))}
            </g>
          );
        })}
      </ChartFrame>
    </figure>
  );
}
