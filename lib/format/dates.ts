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
