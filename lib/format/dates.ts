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

/** "42 s", "3 min 5 s", "2 h 10 min". */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}
