"use client";

import {
  columnVisibilityFeature,
  createColumnHelper,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type SortingState,
  type Updater,
} from "@tanstack/react-table";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState, useTransition } from "react";
import { ENTITY_TYPES, type EntityType } from "@/lib/dataset/release-schema";
import { filtersToSearchParams, type LeaderboardFilters } from "@/lib/leaderboard/filter-rows";
import { formatParameterCount, formatPValue } from "@/lib/format/numbers";
import type { LeaderboardRow } from "@/lib/leaderboard/leaderboard-types";
import { describeRank, describeSignificance } from "@/lib/leaderboard/significance";
import { defaultDescending, type TablePage, type TableSort } from "@/lib/leaderboard/table-query";
import { METRIC_LABELS, type LeaderboardTrack, type MetricGroup, type ViewMetric } from "@/lib/leaderboard/views";
import { Badge, EstimateText } from "./estimate-text";
import { LeaderboardFilterControls } from "./leaderboard-filters";

// Filtering, sorting and paging happen on the server (lib/leaderboard/table-query.ts);
// the table renders one page and turns header clicks and filter edits into URLs.
const features = tableFeatures({ rowSortingFeature, columnVisibilityFeature });

const helper = createColumnHelper<typeof features, LeaderboardRow>();

const TYPE_COLUMN_PREFIX = "type:";
const FILTER_DELAY_MS = 250;

type Props = {
  page: TablePage;
  track: LeaderboardTrack;
  type: EntityType | null;
  rankMetric: ViewMetric;
  groups: MetricGroup[];
  /** Whether a best baseline exists, so the significance column means something. */
  hasSignificance: boolean;
  /** The filters of the URL this page was rendered for. */
  filters: LeaderboardFilters;
  /** Whether the per-type columns are shown (their numbers come with the page only then). */
  showTypes: boolean;
  /** Samples per entity type in the split, for the per-type headers. */
  typeCounts: Partial<Record<EntityType, number>>;
  hasReported: boolean;
  caption: string;
  /** Query pairs kept in the URL beside the table's own (the track). */
  baseQuery: [string, string][];
};

/** The mark against the best baseline with its p on the page (section 13's test of the pair). */
function SignificanceCell({ row }: { row: LeaderboardRow }) {
  const mark = row.significance;
  if (mark === null) {
    return <span className="text-muted">–</span>;
  }
  const description = describeSignificance(mark);
  const isBetter = mark.isSignificant && mark.direction === "better";
  const isWorse = mark.isSignificant && !isBetter;
  const symbol = isBetter ? "▲" : isWorse ? "▼" : "·";
  const tone = isBetter ? "font-bold text-green-800" : isWorse ? "font-bold text-red-800" : "text-muted";
  return (
    <span className={`whitespace-nowrap ${tone}`} data-testid="mark" data-mark={isBetter ? "better" : isWorse ? "worse" : "none"}>
      <span aria-hidden="true">{symbol}</span> <span className="text-xs font-normal">p = {formatPValue(mark.pHolm)}</span>
      <span className="sr-only">{description}</span>
    </span>
  );
}

/** The rank, with its reason one tap away (a disclosure widget, not a tooltip). */
function RankCell({ row }: { row: LeaderboardRow }) {
  if (row.rank === null) return <Missing />;
  if (row.rankReason === null) return <span>{row.rank}</span>;
  return (
    <details data-testid="rank" data-rank={row.rank}>
      <summary className="cursor-pointer font-semibold">{row.rank}</summary>
      <p className="mt-1 w-56 text-xs font-normal text-muted" data-testid="rank-reason">
        {describeRank(row.rank, row.rankReason)}
      </p>
    </details>
  );
}

function SystemCell({ row }: { row: LeaderboardRow }) {
  return (
    <div className="min-w-40">
      {row.entryId ? <Link href={`/entries/${row.entryId}`}>{row.system}</Link> : <span>{row.system}</span>}
      {row.kind === "baseline" && <Badge tone="baseline">baseline</Badge>}
      {row.kind === "reported" && (
        <Badge tone="reported" title={`Reported in a paper (${row.source ?? "source unknown"}): no interval, no significance test`}>
          reported
        </Badge>
      )}
      {row.isStale && (
        <Badge tone="stale" title="Scored with an older scorer version or gold; it will be re-scored">
          stale
        </Badge>
      )}
      <div className="text-xs text-muted">{row.kind === "reported" ? row.source : row.team}</div>
    </div>
  );
}

function Missing() {
  return <span className="text-muted">–</span>;
}

type ColumnOptions = Pick<Props, "track" | "type" | "rankMetric" | "groups" | "hasSignificance" | "typeCounts">;

function buildColumns({ track, type, rankMetric, groups, hasSignificance, typeCounts }: ColumnOptions) {
  const sortable = (id: string) => ({ id, sortDescFirst: defaultDescending(id) });
  const entryColumns = [
    helper.accessor((row) => row.rank ?? undefined, { ...sortable("rank"), header: "Rank", cell: (info) => <RankCell row={info.row.original} /> }),
    helper.accessor((row) => row.system, { ...sortable("system"), header: "System", cell: (info) => <SystemCell row={info.row.original} /> }),
    ...(track === "unified" ? [helper.accessor((row) => row.track, { ...sortable("track"), header: "Track", cell: (info) => info.getValue() })] : []),
    ...(type !== null
      ? [helper.accessor((row) => row.n ?? undefined, { ...sortable("n"), header: "n", cell: (info) => info.getValue()?.toLocaleString("en") ?? <Missing /> })]
      : []),
  ];

  const metricGroups = groups.map((group) =>
    helper.group({
      id: `group:${group.id}`,
      header: group.label,
      columns: helper.columns(
        group.metrics.map((metric) =>
          helper.accessor((row) => row.metrics[metric]?.value, {
            ...sortable(metric),
            header: METRIC_LABELS[metric],
            cell: (info) => <EstimateText estimate={info.row.original.metrics[metric]} metric={metric} />,
          }),
        ),
      ),
    }),
  );

  const significanceColumns =
    hasSignificance
      ? [
          helper.accessor((row) => row.significance?.pHolm, {
            ...sortable("significance"),
            header: "vs best baseline",
            cell: (info) => <SignificanceCell row={info.row.original} />,
          }),
        ]
      : [];

  const typeColumns =
    type === null
      ? [
          helper.group({
            id: "group:types",
            header: `${METRIC_LABELS[rankMetric]} by entity type`,
            columns: helper.columns(
              ENTITY_TYPES.map((entityType) =>
                helper.accessor((row) => row.byType?.[entityType]?.value ?? undefined, {
                  ...sortable(`${TYPE_COLUMN_PREFIX}${entityType}`),
                  header: typeCounts[entityType] === undefined ? entityType : `${entityType} (n=${(typeCounts[entityType] ?? 0).toLocaleString("en")})`,
                  cell: (info) => {
                    const estimate = info.row.original.byType?.[entityType];
                    return <EstimateText estimate={estimate && estimate.value !== null ? { value: estimate.value, ci95: estimate.ci95 } : null} metric={rankMetric} />;
                  },
                }),
              ),
            ),
          }),
        ]
      : [];

  const detailColumns = helper.group({
    id: "group:details",
    header: "Details",
    columns: helper.columns([
      ...(type === null
        ? [helper.accessor((row) => row.n ?? undefined, { ...sortable("n"), header: "n", cell: (info) => info.getValue()?.toLocaleString("en") ?? <Missing /> })]
        : []),
      helper.accessor((row) => row.parameterCount ?? undefined, {
        ...sortable("params"),
        header: "Parameters",
        cell: (info) => formatParameterCount(info.row.original.parameterCount),
      }),
      helper.accessor((row) => (row.isOpenWeights === null ? "–" : row.isOpenWeights ? "open" : "closed"), {
        ...sortable("weights"),
        header: "Weights",
        cell: (info) => info.getValue(),
      }),
      helper.accessor((row) => row.date ?? "", { ...sortable("date"), header: "Date", cell: (info) => info.getValue() || "–" }),
    ]),
  });

  return helper.columns([...entryColumns, ...metricGroups, ...significanceColumns, ...typeColumns, detailColumns]);
}

function isNumericColumn(id: string): boolean {
  return !["system", "track", "weights", "date"].includes(id);
}

type Navigation = { filters: LeaderboardFilters; sort: TableSort; page: number; showTypes: boolean };

/** The interactive leaderboard: one server-sorted page, sortable headers, filters, per-type columns on demand. */
export function LeaderboardTable(props: Props) {
  const { page, track, type, rankMetric, groups, hasSignificance, typeCounts, caption, baseQuery } = props;
  const router = useRouter();
  const pathname = usePathname();
  const [isPending, startTransition] = useTransition();
  const [filters, setFilters] = useState<LeaderboardFilters>(props.filters);
  // The toggle shows at once; the per-type numbers arrive with the next page.
  const [pendingTypes, setPendingTypes] = useState<{ base: boolean; show: boolean } | null>(null);
  const showTypes = pendingTypes !== null && pendingTypes.base === props.showTypes ? pendingTypes.show : props.showTypes;
  // A clicked sort shows at once; it gives way to the server's once the new page arrives.
  const serverSortKey = `${page.sort.id}|${page.sort.desc}`;
  const [pendingSort, setPendingSort] = useState<{ base: string; sort: TableSort } | null>(null);
  const sort = pendingSort !== null && pendingSort.base === serverSortKey ? pendingSort.sort : page.sort;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => () => {
    if (timer.current !== null) clearTimeout(timer.current);
  }, []);

  const hrefFor = (next: Navigation): string => {
    const params = new URLSearchParams(baseQuery);
    for (const [key, value] of filtersToSearchParams(next.filters)) params.set(key, value);
    if (!(next.sort.id === rankMetric && next.sort.desc)) {
      params.set("sort", next.sort.id);
      params.set("dir", next.sort.desc ? "desc" : "asc");
    }
    if (next.page > 1) params.set("page", String(next.page));
    if (next.showTypes) params.set("types", "show");
    return `${pathname}?${params.toString()}`;
  };
  const navigate = (next: Navigation) => {
    startTransition(() => router.replace(hrefFor(next), { scroll: false }));
  };

  const onFiltersChange = (next: LeaderboardFilters) => {
    setFilters(next);
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => navigate({ filters: next, sort, page: 1, showTypes }), FILTER_DELAY_MS);
  };

  const sorting: SortingState = [{ id: sort.id, desc: sort.desc }];
  const onSortingChange = (updater: Updater<SortingState>) => {
    const next = (typeof updater === "function" ? updater(sorting) : updater)[0];
    if (next === undefined) return;
    const nextSort = { id: next.id, desc: next.desc };
    setPendingSort({ base: serverSortKey, sort: nextSort });
    navigate({ filters, sort: nextSort, page: 1, showTypes });
  };

  const columns = useMemo(
    () => buildColumns({ track, type, rankMetric, groups, hasSignificance, typeCounts }),
    [track, type, rankMetric, groups, hasSignificance, typeCounts],
  );
  const columnVisibility = useMemo(
    () => Object.fromEntries(ENTITY_TYPES.map((entityType) => [`${TYPE_COLUMN_PREFIX}${entityType}`, showTypes])),
    [showTypes],
  );

  const table = useTable({
    features,
    columns,
    data: page.rows,
    getRowId: (row) => row.key,
    state: { sorting, columnVisibility },
    onSortingChange,
    manualSorting: true,
    enableSortingRemoval: false,
  });

  return (
    <div className="space-y-3">
      <LeaderboardFilterControls filters={filters} onChange={onFiltersChange} rangeProblem={page.rangeProblem} hasReported={props.hasReported} />
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <p aria-live="polite" className="text-muted">
          {isPending
            ? "Updating…"
            : `Showing ${page.matching.toLocaleString("en")} of ${page.total.toLocaleString("en")} rows${page.pageCount > 1 ? ` (page ${page.page} of ${page.pageCount})` : ""}`}
        </p>
        {type === null && (
          <button
            type="button"
            aria-pressed={showTypes}
            onClick={() => {
              setPendingTypes({ base: props.showTypes, show: !showTypes });
              navigate({ filters, sort, page: page.page, showTypes: !showTypes });
            }}
            className="rounded border border-line bg-white px-3 py-1 hover:bg-slate-100"
          >
            {showTypes ? "Hide" : "Show"} per-type columns
          </button>
        )}
      </div>
      <div role="region" aria-label={caption} aria-busy={isPending} tabIndex={0} className="relative overflow-x-auto rounded border border-line bg-white">
        <table className={`min-w-full text-sm ${isPending ? "opacity-70" : ""}`}>
          <caption className="px-2 py-1 text-left text-muted">{caption}</caption>
          <thead className="border-b border-line bg-slate-50">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  if (header.rowSpan === 0) return null;
                  const { column } = header;
                  // A placeholder above a shallow leaf (Rank, System) spans both rows and sorts its leaf.
                  const isGroup = column.columns.length > 0;
                  const sorted = isGroup ? false : column.getIsSorted();
                  const ariaSort = sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined;
                  const label = typeof column.columnDef.header === "string" ? column.columnDef.header : column.id;
                  return (
                    <th
                      key={header.id}
                      colSpan={header.colSpan}
                      rowSpan={header.rowSpan > 1 ? header.rowSpan : undefined}
                      scope={isGroup ? "colgroup" : "col"}
                      aria-sort={ariaSort}
                      className={`align-bottom whitespace-nowrap ${isGroup ? "border-b border-line text-center font-semibold" : isNumericColumn(column.id) ? "text-right" : ""}`}
                    >
                      {isGroup ? (
                        <table.FlexRender header={header} />
                      ) : (
                        <button
                          type="button"
                          onClick={column.getToggleSortingHandler()}
                          title={`Sort by ${label} (${column.getNextSortingOrder() === "asc" ? "ascending" : "descending"})`}
                          className="inline-flex items-center gap-1 font-semibold text-ink hover:underline"
                        >
                          <table.FlexRender header={header} />
                          <span aria-hidden="true" className={sorted ? "text-accent" : "text-slate-400"}>
                            {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}
                          </span>
                        </button>
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr
                key={row.id}
                data-kind={row.original.kind}
                className={`border-b border-line align-top ${row.original.kind === "baseline" ? "bg-amber-50/60" : row.original.kind === "reported" ? "bg-slate-50 italic" : ""}`}
              >
                {row.getVisibleCells().map((cell) =>
                  cell.column.id === "system" ? (
                    <th key={cell.id} scope="row" data-column={cell.column.id} className="font-normal">
                      <table.FlexRender cell={cell} />
                    </th>
                  ) : (
                    <td key={cell.id} data-column={cell.column.id} className={isNumericColumn(cell.column.id) ? "text-right" : "whitespace-nowrap"}>
                      <table.FlexRender cell={cell} />
                    </td>
                  ),
                )}
              </tr>
            ))}
            {page.rows.length === 0 && (
              <tr>
                <td colSpan={table.getVisibleLeafColumns().length} className="py-4 text-center text-muted">
                  No row matches these filters.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {page.pageCount > 1 && (
        <nav aria-label="Leaderboard pages" className="flex items-center gap-3 text-sm">
          {page.page > 1 ? (
            <Link href={hrefFor({ filters, sort, page: page.page - 1, showTypes })} scroll={false} replace>
              Previous page
            </Link>
          ) : (
            <span className="text-muted">Previous page</span>
          )}
          <span>
            Page {page.page} of {page.pageCount}
          </span>
          {page.page < page.pageCount ? (
            <Link href={hrefFor({ filters, sort, page: page.page + 1, showTypes })} scroll={false} replace>
              Next page
            </Link>
          ) : (
            <span className="text-muted">Next page</span>
          )}
        </nav>
      )}
    </div>
  );
}
