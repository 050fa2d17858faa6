/**
 * Axis ticks and scales for the recharts charts (components/charts): pure maths, fed to recharts as ticks and domain.
 * Pure: numbers in, numbers out; the labels a person reads are written by
 * lib/core/format. Ticks sit at a regular step of 1, 2 or 5 times a power of ten
 * (time: a round minute, hour or day), and the axis ends on its last tick,
 * so no gap at the end is narrower than the others.
 */

type Axis = { domain: [number, number]; ticks: number[]; step: number };

const MULTIPLIERS = [1, 2, 5] as const;

/** The smallest step of 1, 2 or 5 x 10^k that cuts `span` into at most `maxIntervals` parts. */
export function niceStep(span: number, maxIntervals: number): number {
  const rough = span / Math.max(1, maxIntervals);
  if (!(rough > 0) || !Number.isFinite(rough)) return 1;
  const power = 10 ** Math.floor(Math.log10(rough));
  for (const multiplier of MULTIPLIERS) {
    if (multiplier * power >= rough * (1 - 1e-9)) return multiplier * power;
  }
  return 10 * power;
}

/** Multiples of `step` from `low` to `high`, both included, without floating-point drift. */
function ticksBetween(low: number, high: number, step: number): number[] {
  const count = Math.round((high - low) / step);
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  const scale = 10 ** decimals;
  return Array.from({ length: count + 1 }, (_, index) => Math.round((low + index * step) * scale) / scale);
}

/**
 * A linear axis over [min, max] with at most `maxIntervals` gaps, widened to
 * the step's multiples and kept inside `bounds` (a step of 1, 2 or 5 x 10^k
 * divides 0 and 100, so clamping a percent axis keeps the ticks regular).
 */
export function linearAxis(min: number, max: number, maxIntervals: number, bounds?: [number, number]): Axis {
  let low = Math.min(min, max);
  let high = Math.max(min, max);
  if (low === high) {
    low -= 1;
    high += 1;
  }
  const step = niceStep(high - low, maxIntervals);
  let start = Math.floor(low / step + 1e-9) * step;
  let end = Math.ceil(high / step - 1e-9) * step;
  if (bounds !== undefined) {
    start = Math.max(bounds[0], start);
    end = Math.min(bounds[1], end);
  }
  const ticks = ticksBetween(start, end, step);
  return { domain: [ticks[0] ?? start, ticks[ticks.length - 1] ?? end], ticks, step };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Round steps of a time axis, in milliseconds: minutes, hours, days, weeks, about a month, a quarter, a year. */
const TIME_STEPS = [
  MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE,
  HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR,
  DAY, 2 * DAY, 7 * DAY, 14 * DAY, 28 * DAY, 91 * DAY, 364 * DAY,
] as const;

export const ONE_DAY_MS = DAY;

/**
 * A time axis (ms since the epoch) over [min, max]: the smallest round step
 * giving at most `maxIntervals` gaps, the domain widened to whole steps (UTC:
 * a day step starts at midnight), and at least one gap; `minStep` keeps
 * a day axis from ticking in hours. Every tick is a
 * different minute, so labels to the minute never repeat.
 */
export function timeAxis(min: number, max: number, maxIntervals: number, minStep = 0): Axis {
  const low = Math.min(min, max);
  const high = Math.max(min, max);
  const fits = (candidate: number) => candidate >= minStep && Math.ceil(high / candidate) - Math.floor(low / candidate) <= Math.max(1, maxIntervals);
  const step: number = TIME_STEPS.find(fits) ?? 364 * DAY;
  const start = Math.floor(low / step) * step;
  let end = Math.ceil(high / step) * step;
  if (end === start) end = start + step;
  const ticks = Array.from({ length: Math.round((end - start) / step) + 1 }, (_, index) => start + index * step);
  return { domain: [start, end], ticks, step };
}
