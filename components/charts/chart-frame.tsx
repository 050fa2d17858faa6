import type { ReactNode } from "react";

/**
 * The hand-drawn SVG every chart is made of, rendered on the server (a reader
 * without JavaScript sees it; recharts 3 draws nothing until it runs in the
 * browser). Horizontal positions are percentages of the plot's width, so the
 * chart fills its column from a 390 px phone to a wide screen while text keeps
 * its real size; vertical positions are pixels of a fixed height. Anything
 * drawn at a percentage with a pixel shape (a marker, a rotated label, an error
 * bar's cap) sits in a nested <svg> placed at that percentage (`At`).
 */

export type Margin = { top: number; right: number; bottom: number; left: number };

export type YTick = { y: number; label: string };
export type XTick = { x: number; lines: string[] };

export const AXIS_TEXT = "#374151";
const GRID = "#e5e7eb";
const AXIS = "#6b7280";

export const pct = (value: number) => `${value}%`;

/** A nested SVG whose origin is at (x percent, y px): draw pixel shapes around 0,0 inside it. */
export function At({ x, y, children, ...rest }: { x: number; y: number; children: ReactNode; "data-mark"?: string; "data-series"?: string }) {
  return (
    <svg x={pct(x)} y={y} overflow="visible" {...rest}>
      {children}
    </svg>
  );
}

type FrameProps = {
  /** The accessible name of the drawing (role img); omit when `isHidden`. */
  label?: string;
  /** Hidden from assistive technology when a data table beside it holds the same numbers. */
  isHidden?: boolean;
  /** The plot area's height in pixels (the axes' labels sit in the margin). */
  height: number;
  margin: Margin;
  yTicks?: YTick[];
  yLabel?: string;
  xTicks?: XTick[];
  /** Category labels under a bar chart, turned so long names fit. */
  xCategories?: { x: number; label: string }[];
  xLabel?: string;
  /** Vertical grid lines at these percentages (a numeric x axis). */
  xGrid?: number[];
  children: ReactNode;
  testId?: string;
};

export function ChartFrame({ label, isHidden = false, height, margin, yTicks = [], yLabel, xTicks = [], xCategories = [], xLabel, xGrid = [], children, testId }: FrameProps) {
  const a11y = isHidden ? { "aria-hidden": true as const } : { role: "img", "aria-label": label };
  return (
    <div style={{ padding: `${margin.top}px ${margin.right}px ${margin.bottom}px ${margin.left}px` }}>
      <svg width="100%" height={height} className="chart-surface block overflow-visible" data-testid={testId} fontSize={11} {...a11y}>
        {yTicks.map((tick) => (
          <line key={`gy${tick.y}`} x1="0%" x2="100%" y1={tick.y} y2={tick.y} stroke={GRID} strokeDasharray="3 3" />
        ))}
        {xGrid.map((x) => (
          <line key={`gx${x}`} x1={pct(x)} x2={pct(x)} y1={0} y2={height} stroke={GRID} strokeDasharray="3 3" />
        ))}
        <line x1="0%" x2="0%" y1={0} y2={height} stroke={AXIS} />
        <line x1="0%" x2="100%" y1={height} y2={height} stroke={AXIS} />
        {yTicks.map((tick) => (
          <text key={`ty${tick.y}`} x={-6} y={tick.y} dy="0.35em" textAnchor="end" fill={AXIS_TEXT} className="chart-y-tick">
            {tick.label}
          </text>
        ))}
        {yLabel !== undefined && (
          <text transform={`translate(${12 - margin.left} ${height / 2}) rotate(-90)`} textAnchor="middle" fill={AXIS_TEXT}>
            {yLabel}
          </text>
        )}
        {xTicks.map((tick) => (
          <At key={`tx${tick.x}`} x={tick.x} y={height}>
            <line x1={0} x2={0} y1={0} y2={5} stroke={AXIS} />
            <text y={17} textAnchor="middle" fill={AXIS_TEXT} className="chart-x-tick">
              {tick.lines.map((line, index) => (
                <tspan key={index} x={0} dy={index === 0 ? 0 : "1.2em"}>
                  {line}
                </tspan>
              ))}
            </text>
          </At>
        ))}
        {xCategories.map((category) => (
          <At key={`c${category.x}`} x={category.x} y={height}>
            <text transform="translate(0 12) rotate(-30)" textAnchor="end" dy="0.35em" fill={AXIS_TEXT} className="chart-category">
              {category.label}
            </text>
          </At>
        ))}
        {xLabel !== undefined && (
          <text x="50%" y={height + margin.bottom - 4} textAnchor="middle" fill={AXIS_TEXT}>
            {xLabel}
          </text>
        )}
        {children}
      </svg>
    </div>
  );
}

export type MarkerShape = "circle" | "diamond" | "triangle" | "star" | "cross" | "square";

function starPath(radius: number): string {
  const corners = Array.from({ length: 10 }, (_, index) => {
    const r = index % 2 === 0 ? radius : radius * 0.45;
    const angle = (Math.PI / 5) * index - Math.PI / 2;
    return `${Math.round(Math.cos(angle) * r * 100) / 100} ${Math.round(Math.sin(angle) * r * 100) / 100}`;
  });
  return `M${corners.join(" L")} Z`;
}

const PATHS: Record<Exclude<MarkerShape, "circle">, (r: number) => string> = {
  diamond: (r) => `M0 ${-r * 1.25} L${r * 1.25} 0 L0 ${r * 1.25} L${-r * 1.25} 0 Z`,
  triangle: (r) => `M0 ${-r * 1.2} L${r * 1.1} ${r * 0.8} L${-r * 1.1} ${r * 0.8} Z`,
  star: (r) => starPath(r * 1.5),
  cross: (r) => {
    const w = r * 0.45;
    return `M${-w} ${-r} H${w} V${-w} H${r} V${w} H${w} V${r} H${-w} V${w} H${-r} V${-w} H${-w} Z`;
  },
  square: (r) => `M${-r} ${-r} H${r} V${r} H${-r} Z`,
};

/** One marker shape around 0,0 (inside `At`, or a legend swatch). */
export function MarkerShapeAt({ shape, color, isHollow = false, radius = 4, dx = 0 }: { shape: MarkerShape; color: string; isHollow?: boolean; radius?: number; dx?: number }) {
  const paint = { fill: isHollow ? "#ffffff" : color, stroke: color, strokeWidth: isHollow ? 2 : 1 };
  if (shape === "circle") return <circle cx={dx} cy={0} r={radius} {...paint} />;
  return <path d={PATHS[shape](radius)} transform={dx === 0 ? undefined : `translate(${dx} 0)`} {...paint} />;
}

/** A plotted point: its shape at (x percent, y px), its numbers as a hover title. */
export function Marker({ x, y, shape, color, isHollow, dx, title, series }: { x: number; y: number; shape: MarkerShape; color: string; isHollow?: boolean; dx?: number; title: string; series?: string }) {
  return (
    <At x={x} y={y} data-mark="point" data-series={series}>
      <title>{title}</title>
      <MarkerShapeAt shape={shape} color={color} isHollow={isHollow} dx={dx} />
    </At>
  );
}

/** A legend entry's drawing: the marker, on a line when the series has one. */
export function LegendSwatch({ shape, color, isHollow, hasLine }: { shape?: MarkerShape; color: string; isHollow?: boolean; hasLine?: boolean }) {
  return (
    <svg width="28" height="14" viewBox="0 0 28 14" aria-hidden="true" className="shrink-0">
      {hasLine && <line x1="2" y1="7" x2="26" y2="7" stroke={color} strokeWidth="2" />}
      {shape !== undefined && (
        <g transform="translate(14 7)">
          <MarkerShapeAt shape={shape} color={color} isHollow={isHollow} />
        </g>
      )}
    </svg>
  );
}

export type LegendItem = { key: string; label: string; color: string; shape?: MarkerShape; isHollow?: boolean; hasLine?: boolean };

/** The legend as a list of words beside their swatches: it reads without colour. */
export function ChartLegend({ items, testId }: { items: readonly LegendItem[]; testId?: string }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label="Legend" data-testid={testId}>
      {items.map((item) => (
        <li key={item.key} className="flex items-center gap-1" data-series={item.key}>
          <LegendSwatch shape={item.shape} color={item.color} isHollow={item.isHollow} hasLine={item.hasLine} />
          {item.label}
        </li>
      ))}
    </ul>
  );
}

/** A vertical 95% interval at x percent, from y px `top` to `bottom`, with short caps. */
export function VerticalErrorBar({ x, top, bottom, color = "#111827" }: { x: number; top: number; bottom: number; color?: string }) {
  return (
    <At x={x} y={0}>
      <line x1={0} x2={0} y1={top} y2={bottom} stroke={color} strokeWidth={1.5} />
      <line x1={-3} x2={3} y1={top} y2={top} stroke={color} strokeWidth={1.5} />
      <line x1={-3} x2={3} y1={bottom} y2={bottom} stroke={color} strokeWidth={1.5} />
    </At>
  );
}
