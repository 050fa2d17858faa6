import type { SampleQuery } from "./sample-schemas";

const DEFAULTS: Partial<Record<keyof SampleQuery, string>> = {
  page: "1",
  pageSize: "50",
  outcome: "all",
  sort: "order",
  dir: "asc",
  format: "json",
  change: "changed",
};

/** A link to `path` with the query's non-default parameters (and `extra`), in a stable order. */
export function queryHref(path: string, query: Partial<Record<keyof SampleQuery, string | number | undefined>>, extra: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(extra)) if (value !== undefined && value !== "") params.set(key, value);
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === "" || params.has(key)) continue;
    const text = String(value);
    if (DEFAULTS[key as keyof SampleQuery] === text) continue;
    params.set(key, text);
  }
  const search = params.toString();
  return search === "" ? path : `${path}?${search}`;
}
