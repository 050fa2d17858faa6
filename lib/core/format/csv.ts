/**
 * CSV as RFC 4180 writes it: comma-separated, CRLF line ends, fields quoted
 * when they hold a comma, quote, CR or LF, quotes doubled. Numbers are written
 * with JavaScript's shortest round-trip form, so a parsed cell gives back the
 * exact same double. Text that a spreadsheet would run as a formula (starting
 * with =, +, -, @, tab or CR) gets a leading apostrophe (OWASP's CSV
 * injection advice); numbers are never touched.
 */

export type CsvCell = string | number | boolean | null | undefined;

export type CsvColumn = { key: string; label: string };

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

function cellText(value: CsvCell): string {
  if (value === null || value === undefined) {
    return "";
  }
  if (typeof value === "number") {
    return Number.isFinite(value) ? String(value) : "";
  }
  if (typeof value === "boolean") {
    return value ? "true" : "false";
  }
  return FORMULA_START.test(value) ? `'${value}` : value;
}

function quote(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(columns: readonly CsvColumn[], rows: readonly Record<string, CsvCell>[]): string {
  const lines = [columns.map((column) => quote(column.label)).join(",")];
  for (const row of rows) {
    lines.push(columns.map((column) => quote(cellText(row[column.key]))).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}
