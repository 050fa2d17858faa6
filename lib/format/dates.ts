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

/** ISO 8601 for APIs and files: "2026-12-01T22:15:03.456Z"; null stays null. */
export function formatIsoDateTime(value: Date | string): string;
export function formatIsoDateTime(value: Date | string | null): string | null;
export function formatIsoDateTime(value: Date | string | null): string | null {
  return value === null ? null : toDate(value).toISOString();
}
