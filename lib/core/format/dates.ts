import { DAY_MS } from "@/lib/core/time";
/**
 * Dates, one way for people everywhere (pages, the CLI, messages): the UTC day
 * "2026-12-01", and a moment "2026-12-01 22:15 UTC". The same string whatever
 * the reader's or the server's time zone, and sortable. APIs and files carry
 * ISO 8601 instead ("2026-12-01T22:15:03.456Z", `formatIsoDateTime`).
 */

function toDate(value: Date | string): Date {
  return typeof value === "string" ? new Date(value) : value;
}

/** "2026-12-01 22:15 UTC"; "–" when there is none. */
export function formatDateTime(value: Date | string | null | undefined): string {
  if (value === null || value === undefined) return "–";
  return `${toDate(value).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** "2026-12-01" (the UTC day); "–" when there is none. */
export function formatDate(value: Date | string | null | undefined): string {
  if (value === null || value === undefined) return "–";
  return toDate(value).toISOString().slice(0, 10);
}

/** "22:15Z": the UTC time of day to the minute. */
export function formatTimeOfDay(value: Date | string | number): string {
  return `${new Date(value).toISOString().slice(11, 16)}Z`;
}


/**
 * A time axis' tick as lines: the UTC day, and under it the time of day when
 * the ticks are less than a day apart ("2026-12-03", "13:45Z").
 */
export function formatTimeTick(time: number, stepMs: number): string[] {
  const day = formatDate(new Date(time));
  return stepMs >= DAY_MS ? [day] : [day, formatTimeOfDay(time)];
}

/** ISO 8601 for APIs and files: "2026-12-01T22:15:03.456Z"; null stays null. @internal exported for its tests. */
export function formatIsoDateTime(value: Date | string): string;
export function formatIsoDateTime(value: Date | string | null): string | null;
export function formatIsoDateTime(value: Date | string | null): string | null {
  return value === null ? null : toDate(value).toISOString();
}

/** "42 s", "3 min 5 s", "2 h 10 min". */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}
