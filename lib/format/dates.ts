/**
 * Dates as ISO 8601 in UTC, everywhere a person reads one: the same string
 * whatever the reader's or the server's time zone, and sortable.
 */

function toDate(value: Date | string): Date {
  return typeof value === "string" ? new Date(value) : value;
}

/** "2026-12-01T22:15:03Z"; "–" when there is none. */
export function formatDateTime(value: Date | string | null | undefined): string {
  if (value === null || value === undefined) return "–";
  return `${toDate(value).toISOString().slice(0, 19)}Z`;
}

/** "2026-12-01" (the UTC day). */
export function formatDate(value: Date | string): string {
  return toDate(value).toISOString().slice(0, 10);
}

/** "22:15Z": the UTC time of day to the minute. */
export function formatTimeOfDay(value: Date | string | number): string {
  return `${new Date(value).toISOString().slice(11, 16)}Z`;
}

const DAY_MS = 86_400_000;

/**
 * A time axis' tick as lines: the UTC day, and under it the time of day when
 * the ticks are less than a day apart ("2026-12-03", "13:45Z").
 */
export function formatTimeTick(time: number, stepMs: number): string[] {
  const day = formatDate(new Date(time));
  return stepMs >= DAY_MS ? [day] : [day, formatTimeOfDay(time)];
}
