import { z } from "zod";
import { ENTITY_TYPES, isEntityType } from "@/lib/core/dataset/release-schema";
import { parseParameterCount } from "@/lib/core/format/numbers";
import { filterRows, leaderboardFiltersSchema, type LeaderboardFilters, type ParameterRange } from "./filter-rows";
import type { LeaderboardRow, LeaderboardView } from "./leaderboard-types";
import { ENTRY_SCOPES } from "./primary-entries";

/**
 * The leaderboard table is filtered, sorted and paged on the server from the
 * page's query string, so a page carries 50 rows however many entries there
 * are, and every view is a shareable URL. Pure: the page passes the view and
 * the query, the client table renders the result.
 */

export const PAGE_SIZE = 50;

export const tableQuerySchema = leaderboardFiltersSchema.extend({
  sort: z.string().max(40).optional().catch(undefined),
  dir: z.enum(["asc", "desc"]).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
  /** Per-type columns: their numbers are only sent when shown. */
  types: z.enum(["show", "hide"]).catch("hide"),
  /** Each participant's primary entry (default) or every public entry (lib/core/leaderboard/primary-entries.ts). */
  scope: z.enum(ENTRY_SCOPES).catch("primary"),
});
export type TableQuery = z.infer<typeof tableQuerySchema>;

export type TableSort = { id: string; desc: boolean };

export type TablePage = {
  /** The page's rows, numbers rounded for display (compactRow). */
  rows: LeaderboardRow[];
  /** Rows in the view before filtering, and after. */
  total: number;
  matching: number;
  page: number;
  pageCount: number;
  sort: TableSort;
  /** Problem with the typed parameter range, if any (the range is then ignored). */
  rangeProblem: string | null;
};

const TYPE_PREFIX = "type:";

/** Columns whose first click sorts ascending (names, ranks); every score sorts best first. */
const ASCENDING_FIRST = new Set(["rank", "system", "track", "weights"]);

type SortValue = number | string | null;

function sortValueOf(row: LeaderboardRow, id: string): SortValue {
  if (id === "rank") return row.rank;
  if (id === "system") return row.system.toLocaleLowerCase("en");
  if (id === "track") return row.track;
  if (id === "n") return row.n;
  if (id === "params") return row.parameterCount;
  if (id === "weights") return row.isOpenWeights === null ? null : row.isOpenWeights ? "open" : "closed";
  if (id === "date") return row.date;
  if (id === "significance") {
    if (row.significance === null) return null;
    return row.significance.verdict === "better" ? 1 : row.significance.verdict === "worse" ? -1 : 0;
  }
  if (id.startsWith(TYPE_PREFIX)) {
    const type = id.slice(TYPE_PREFIX.length);
    return isEntityType(type) ? (row.byType?.[type]?.value ?? null) : null;
  }
  const estimate = (row.metrics as Record<string, { value: number } | null | undefined>)[id];
  return estimate?.value ?? null;
}

/** The column ids a view can be sorted by (the client table uses the same ids). */
function sortableColumns(view: Pick<LeaderboardView, "columns" | "type" | "track" | "bestBaseline">): Set<string> {
  const ids = ["rank", "system", ...view.columns, "params", "weights", "date", "n"];
  if (view.track === "unified") ids.push("track");
  if (view.type === null) {
    ids.push(...ENTITY_TYPES.map((type) => `${TYPE_PREFIX}${type}`));
    if (view.bestBaseline !== null) ids.push("significance");
  }
  return new Set(ids);
}

export function defaultDescending(id: string): boolean {
  return !ASCENDING_FIRST.has(id);
}

/** The sort a query asks for, or the view's default (its ranking metric, best first). */
export function resolveSort(view: Pick<LeaderboardView, "columns" | "type" | "track" | "bestBaseline" | "rankMetric">, query: Pick<TableQuery, "sort" | "dir">): TableSort {
  if (query.sort === undefined || !sortableColumns(view).has(query.sort)) {
    return { id: view.rankMetric, desc: true };
  }
  return { id: query.sort, desc: query.dir === undefined ? defaultDescending(query.sort) : query.dir === "desc" };
}

function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), "en");
}

/**
 * Sorts rows by one column; rows without a value go last in either
 * direction, ties keep the view's order (ranking metric, then name).
 */
export function sortRows(rows: readonly LeaderboardRow[], sort: TableSort): LeaderboardRow[] {
  return rows
    .map((row, index) => ({ row, index, value: sortValueOf(row, sort.id) }))
    .sort((x, y) => {
      if (x.value === null || y.value === null) {
        return x.value === y.value ? x.index - y.index : x.value === null ? 1 : -1;
      }
      const order = compareValues(x.value, y.value);
      return (sort.desc ? -order : order) || x.index - y.index;
    })
    .map((item) => item.row);
}

function parameterRangeOf(filters: LeaderboardFilters): { range: ParameterRange; problem: string | null } {
  const read = (text: string) => (text.trim() === "" ? { value: null, isBad: false } : { value: parseParameterCount(text), isBad: parseParameterCount(text) === null });
  const min = read(filters.minParams);
  const max = read(filters.maxParams);
  return {
    range: { min: min.isBad ? null : min.value, max: max.isBad ? null : max.value },
    problem: min.isBad || max.isBad ? "Write a count like 110M, 8B or 1.5e9." : null,
  };
}

/** Enough digits for every number a page shows (0.1 percentage point, MRR to 0.001), and no more. */
function round(value: number): number {
  return Math.round(value * 1e5) / 1e5;
}

function roundEstimate<E extends { value: number | null; ci95: [number, number] | null }>(estimate: E): E {
  return {
    ...estimate,
    value: estimate.value === null ? null : round(estimate.value),
    ci95: estimate.ci95 === null ? null : [round(estimate.ci95[0]), round(estimate.ci95[1])],
  };
}

/**
 * A row as a page sends it to the browser: numbers rounded, per-type numbers
 * only when those columns are shown. The API and downloads keep full rows.
 */
function compactRow(row: LeaderboardRow, withTypes: boolean): LeaderboardRow {
  const metrics = Object.fromEntries(
    Object.entries(row.metrics).map(([key, estimate]) => [key, estimate ? roundEstimate(estimate) : null]),
  ) as LeaderboardRow["metrics"];
  let byType: LeaderboardRow["byType"] = null;
  if (withTypes && row.byType !== null) {
    byType = {};
    for (const type of ENTITY_TYPES) {
      const estimate = row.byType[type];
      if (estimate !== undefined) byType[type] = roundEstimate(estimate);
    }
  }
  return { ...row, metrics, byType };
}

export function applyTableQuery(view: LeaderboardView, query: TableQuery): TablePage {
  const { range, problem } = parameterRangeOf(query);
  const filtered = filterRows(view.rows, query, range);
  const sort = resolveSort(view, query);
  const sorted = sortRows(filtered, sort);
  const pageCount = Math.max(1, Math.ceil(sorted.length / PAGE_SIZE));
  const page = Math.min(query.page, pageCount);
  return {
    rows: sorted.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((row) => compactRow(row, query.types === "show")),
    total: view.rows.length,
    matching: sorted.length,
    page,
    pageCount,
    sort,
    rangeProblem: problem,
  };
}
