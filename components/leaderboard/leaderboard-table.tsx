"use client";

import { useTable, type ReactTable, type SortingState } from "@tanstack/react-table";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState, useTransition, type MouseEvent, type ReactNode } from "react";
import { ENTITY_TYPES } from "@/lib/core/dataset/release-schema";
import { DEFAULT_FILTERS, filtersToSearchParams, type LeaderboardFilters } from "@/lib/core/leaderboard/filter-rows";
import { formatCount } from "@/lib/core/format/numbers";
import type { LeaderboardRow } from "@/lib/core/leaderboard/leaderboard-types";
import { defaultDescending, type TablePage, type TableSort } from "@/lib/core/leaderboard/table-query";
import { METRIC_LABELS, type MetricGroup, type ViewMetric } from "@/lib/core/leaderboard/views";
import type { LeaderboardTableProps as Props } from "./table/props";
import { RowLinksContext, STICKY_CLASS, rowBackground } from "./table/cells";
import { buildColumns, features, isNumericColumn, pickableColumns, TYPE_COLUMN_PREFIX } from "./table/columns";
import { ColumnPicker, useHiddenColumns } from "./table/column-picker";
import { LeaderboardCards } from "./table/cards";
import { LeaderboardFilterControls } from "./leaderboard-filters";

// Filtering, sorting and paging happen on the server (lib/core/leaderboard/table-query.ts);
// the table renders one page and turns header clicks and filter edits into URLs.

const FILTER_DELAY_MS = 250;

type Navigation = { filters: LeaderboardFilters; sort: TableSort; page: number; showTypes: boolean };

type LinkClick = (event: MouseEvent<HTMLAnchorElement>) => void;

/** Where a header's sort link goes and what a click on it does. */
type SortLink = { href: string; isDescending: boolean; onClick: LinkClick };

type LeaderboardTableInstance = ReactTable<typeof features, LeaderboardRow>;

/** The table's URLs: its state other than the filters as query pairs, and navigation to a new state in a transition. */
function useLeaderboardNavigation(baseQuery: [string, string][], rankMetric: ViewMetric) {
  const router = useRouter();
  const pathname = usePathname();
  const [isPending, startTransition] = useTransition();
  // The table's state other than its filters, as query pairs: the filter form carries them as hidden inputs.
  const keptPairs = (next: Omit<Navigation, "filters">): [string, string][] => {
    const pairs: [string, string][] = [...baseQuery];
    if (!(next.sort.id === rankMetric && next.sort.desc)) {
      pairs.push(["sort", next.sort.id], ["dir", next.sort.desc ? "desc" : "asc"]);
    }
    if (next.page > 1) pairs.push(["page", String(next.page)]);
    if (next.showTypes) pairs.push(["types", "show"]);
    return pairs;
  };
  const hrefFor = (next: Navigation): string => {
    const params = new URLSearchParams(keptPairs(next));
    for (const [key, value] of filtersToSearchParams(next.filters)) params.set(key, value);
    return `${pathname}?${params.toString()}`;
  };
  const navigate = (next: Navigation) => {
    startTransition(() => router.replace(hrefFor(next), { scroll: false }));
  };
  /** A plain click on one of the table's links navigates in a transition (the table dims meanwhile); other clicks (new tab) stay the browser's. */
  const onLinkClick = (event: MouseEvent<HTMLAnchorElement>, next: Navigation, before?: () => void) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    before?.();
    navigate(next);
  };
  return { pathname, isPending, keptPairs, hrefFor, navigate, onLinkClick };
}

/** The filter form's values: an edit navigates after a short pause, a submit at once, clearing only resets the form. */
function useFilterEditing(initial: LeaderboardFilters, apply: (filters: LeaderboardFilters) => void) {
  const [filters, setFilters] = useState<LeaderboardFilters>(initial);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => () => {
    if (timer.current !== null) clearTimeout(timer.current);
  }, []);

  const onFiltersChange = (next: LeaderboardFilters) => {
    setFilters(next);
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => apply(next), FILTER_DELAY_MS);
  };
  const onFiltersSubmit = (next: LeaderboardFilters) => {
    if (timer.current !== null) clearTimeout(timer.current);
    apply(next);
  };
  const onFiltersClear = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    setFilters(DEFAULT_FILTERS);
  };
  return { filters, onFiltersChange, onFiltersSubmit, onFiltersClear };
}

/** The columns for this view, and which of them the reader shows (picked columns, per-type columns). */
function useLeaderboardColumns(props: Props, showTypes: boolean) {
  const { track, type, rankMetric, groups, hasSignificance, typeCounts, minGroupN, coarseBelowN } = props;
  const columns = useMemo(
    () => buildColumns({ track, type, rankMetric, groups, hasSignificance, typeCounts, minGroupN, coarseBelowN }),
    [track, type, rankMetric, groups, hasSignificance, typeCounts, minGroupN, coarseBelowN],
  );
  const [hiddenColumns, setHiddenColumns] = useHiddenColumns(track);
  const pickable = useMemo(() => pickableColumns(groups, rankMetric), [groups, rankMetric]);
  const columnVisibility = useMemo(
    () => ({
      ...Object.fromEntries(pickable.map((column) => [column.id, !hiddenColumns.has(column.id)])),
      ...Object.fromEntries(ENTITY_TYPES.map((entityType) => [`${TYPE_COLUMN_PREFIX}${entityType}`, showTypes])),
    }),
    [pickable, hiddenColumns, showTypes],
  );
  return { columns, columnVisibility, pickable, hiddenColumns, setHiddenColumns };
}

/** The sort menu of the filter panel: every metric of the view, then the other sortable columns. */
function sortOptionsOf(groups: MetricGroup[]): { id: string; label: string }[] {
  return [
    ...groups.flatMap((group) => group.metrics.map((metric) => ({ id: metric, label: METRIC_LABELS[metric] }))),
    { id: "rank", label: "Rank" },
    { id: "system", label: "System name" },
    { id: "n", label: "n" },
    { id: "params", label: "Parameters" },
    { id: "date", label: "Date" },
  ];
}

/** The interactive leaderboard: one server-sorted page, sortable headers, filters, per-type columns on demand. */
export function LeaderboardTable(props: Props) {
  const { page, type, rankMetric, groups, hasSignificance, caption, baseQuery, minGroupN, coarseBelowN } = props;
  const { pathname, isPending, keptPairs, hrefFor, navigate, onLinkClick } = useLeaderboardNavigation(baseQuery, rankMetric);
  // The toggle shows at once; the per-type numbers arrive with the next page.
  const [pendingTypes, setPendingTypes] = useState<{ base: boolean; show: boolean } | null>(null);
  const showTypes = pendingTypes !== null && pendingTypes.base === props.showTypes ? pendingTypes.show : props.showTypes;
  // A clicked sort shows at once; it gives way to the server's once the new page arrives.
  const serverSortKey = `${page.sort.id}|${page.sort.desc}`;
  const [pendingSort, setPendingSort] = useState<{ base: string; sort: TableSort } | null>(null);
  const sort = pendingSort !== null && pendingSort.base === serverSortKey ? pendingSort.sort : page.sort;
  const { filters, onFiltersChange, onFiltersSubmit, onFiltersClear } = useFilterEditing(props.filters, (next) =>
    navigate({ filters: next, sort, page: 1, showTypes }),
  );

  // Sorting is server-side: each header is a link to the page sorted by its column.
  const sorting: SortingState = [{ id: sort.id, desc: sort.desc }];
  const nextSortOf = (id: string): TableSort => (id === sort.id ? { id, desc: !sort.desc } : { id, desc: defaultDescending(id) });
  const sortLink = (id: string): SortLink => {
    const nextSort = nextSortOf(id);
    const next = { filters, sort: nextSort, page: 1, showTypes };
    return { href: hrefFor(next), isDescending: nextSort.desc, onClick: (event) => onLinkClick(event, next, () => setPendingSort({ base: serverSortKey, sort: nextSort })) };
  };
  const activeFilterCount = filtersToSearchParams(filters).length;
  // Open at first when a filter is on (a shared URL); afterwards the reader's own toggle stays, so clearing a field never snaps the panel shut.
  const [isFiltersOpenAtFirst] = useState(activeFilterCount > 0 || page.rangeProblem !== null);
  const sortOptions = useMemo(() => sortOptionsOf(groups), [groups]);
  const { columns, columnVisibility, pickable, hiddenColumns, setHiddenColumns } = useLeaderboardColumns(props, showTypes);

  const table = useTable({
    features,
    columns,
    data: page.rows,
    getRowId: (row) => row.key,
    state: { sorting, columnVisibility },
    manualSorting: true,
    enableSortingRemoval: false,
  });

  const typesNext = { filters, sort, page: page.page, showTypes: !showTypes };
  const searchPairs = [...keptPairs({ sort, page: 1, showTypes }), ...filtersToSearchParams(filters).filter(([key]) => key !== "q")];
  return (
    <RowLinksContext value={props.rowLinks}>
    <div className="space-y-3">
      <LeaderboardToolbar
        page={page}
        isPending={isPending}
        activeFilterCount={activeFilterCount}
        typesToggle={type === null ? { href: hrefFor(typesNext), isShown: showTypes, onClick: (event) => onLinkClick(event, typesNext, () => setPendingTypes({ base: props.showTypes, show: !showTypes })) } : null}
        columnPicker={<ColumnPicker columns={pickable} hidden={hiddenColumns} onChange={setHiddenColumns} />}
        search={<TableSearch action={pathname} q={filters.q} hiddenPairs={searchPairs} onSearch={(q) => navigate({ filters: { ...filters, q }, sort, page: 1, showTypes })} />}
      />
      <LeaderboardCards rows={page.rows} rankMetric={rankMetric} hasSignificance={hasSignificance} type={type} minGroupN={minGroupN} coarseBelowN={coarseBelowN} showTypes={showTypes} />
      <LeaderboardGrid table={table} caption={caption} isPending={isPending} rankMetric={rankMetric} isEmpty={page.rows.length === 0} sortLink={sortLink} />
      <details id="table-filters" open={isFiltersOpenAtFirst} className="rounded border border-line bg-white" data-testid="table-filters">
        <summary className="cursor-pointer px-3 py-2 text-sm font-medium">
          Filter the table{activeFilterCount > 0 ? ` (${activeFilterCount} on)` : ""}: name, entries, weights, approach, data, cutoff, provenance, size
        </summary>
        <div className="border-t border-line">
          <LeaderboardFilterControls
            filters={filters}
            onChange={onFiltersChange}
            onSubmit={onFiltersSubmit}
            onClear={onFiltersClear}
            action={pathname}
            hiddenPairs={keptPairs({ sort, page: 1, showTypes }).filter(([key]) => key !== "sort" && key !== "dir")}
            sortOptions={sortOptions}
            sort={sort}
            onSortChange={(nextSort) => {
              setPendingSort({ base: serverSortKey, sort: nextSort });
              navigate({ filters, sort: nextSort, page: 1, showTypes });
            }}
            clearHref={hrefFor({ filters: DEFAULT_FILTERS, sort, page: 1, showTypes })}
            rangeProblem={page.rangeProblem}
            hasReported={props.hasReported}
          />
        </div>
      </details>
      <LeaderboardPager page={page} hrefOf={(pageNumber) => hrefFor({ filters, sort, page: pageNumber, showTypes })} />
    </div>
    </RowLinksContext>
  );
}

/** The name search, always in view: a GET form without JavaScript, a navigation with it. */
function TableSearch({ action, q, hiddenPairs, onSearch }: { action: string; q: string; hiddenPairs: [string, string][]; onSearch: (q: string) => void }) {
  return (
    <form
      role="search"
      action={action}
      method="get"
      className="flex items-center gap-1"
      onSubmit={(event) => {
        event.preventDefault();
        const value = new FormData(event.currentTarget).get("q");
        onSearch(typeof value === "string" ? value.trim() : "");
      }}
    >
      {hiddenPairs.map(([key, value]) => (
        <input key={`${key}=${value}`} type="hidden" name={key} value={value} />
      ))}
      <label htmlFor="leaderboard-search" className="sr-only">
        Search systems and teams
      </label>
      <input
        id="leaderboard-search"
        type="search"
        name="q"
        defaultValue={q}
        key={q}
        placeholder="Search systems or teams"
        className="w-44 rounded border border-line bg-white px-2 py-1 sm:w-56"
        data-testid="leaderboard-search"
      />
      <button type="submit" className="rounded border border-line bg-white px-2 py-1 hover:bg-slate-100">
        Search
      </button>
    </form>
  );
}

/** Above the table: how many rows show, how many filters are on, the per-type toggle and the column picker. */
function LeaderboardToolbar({
  page,
  isPending,
  activeFilterCount,
  typesToggle,
  columnPicker,
  search,
}: {
  page: TablePage;
  isPending: boolean;
  activeFilterCount: number;
  typesToggle: { href: string; isShown: boolean; onClick: LinkClick } | null;
  columnPicker: ReactNode;
  /** The name search, always in view (the other filters sit in the box below the table). */
  search: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" data-testid="table-toolbar">
      {search}
      <p aria-live="polite" className="text-muted">
        {isPending
          ? "Updating…"
          : `Showing ${formatCount(page.matching)} of ${formatCount(page.total)} rows${page.pageCount > 1 ? ` (page ${page.page} of ${page.pageCount})` : ""}`}
        {activeFilterCount > 0 && !isPending && (
          <>
            {" · "}
            <a href="#table-filters">
              {activeFilterCount} {activeFilterCount === 1 ? "filter" : "filters"} on
            </a>
          </>
        )}
      </p>
      {typesToggle !== null && (
        <Link
          href={typesToggle.href}
          replace
          scroll={false}
          aria-pressed={typesToggle.isShown}
          role="button"
          onClick={typesToggle.onClick}
          className="rounded border border-line bg-white px-3 py-1 text-ink no-underline hover:bg-slate-100"
        >
          <span className="text-ink">{typesToggle.isShown ? "Hide" : "Show"} per-type columns</span>
        </Link>
      )}
      <div className="hidden md:block">
        {columnPicker}
      </div>
    </div>
  );
}

/** The table itself (wide screens; the cards stand in on narrow ones): two header rows of sort links, one row per entry. */
function LeaderboardGrid({
  table,
  caption,
  isPending,
  rankMetric,
  isEmpty,
  sortLink,
}: {
  table: LeaderboardTableInstance;
  caption: string;
  isPending: boolean;
  rankMetric: ViewMetric;
  isEmpty: boolean;
  sortLink: (id: string) => SortLink;
}) {
  return (
    <div role="region" aria-label={caption} aria-busy={isPending} tabIndex={0} className="relative hidden overflow-x-auto rounded border border-line bg-white md:block">
      <table className={`min-w-full text-sm ${isPending ? "opacity-70" : ""}`}>
        <caption className="px-2 py-1 text-left text-muted">{caption}</caption>
        <thead className="border-b border-line bg-slate-50">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <LeaderboardHeaderCell key={header.id} table={table} header={header} rankMetric={rankMetric} sortLink={sortLink} />
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr
              key={row.id}
              data-kind={row.original.kind}
              className={`border-b border-line align-top ${rowBackground(row.original.kind)} ${row.original.kind === "reported" ? "italic" : ""}`}
            >
              {row.getVisibleCells().map((cell) => {
                const sticky = STICKY_CLASS[cell.column.id];
                const stickyClass = sticky ? `${sticky} ${rowBackground(row.original.kind)}` : "";
                return cell.column.id === "system" ? (
                  <th key={cell.id} scope="row" data-column={cell.column.id} className={`font-normal ${stickyClass}`}>
                    <table.FlexRender cell={cell} />
                  </th>
                ) : (
                  <td key={cell.id} data-column={cell.column.id} className={`${isNumericColumn(cell.column.id) ? "text-right" : "whitespace-nowrap"} ${stickyClass}`}>
                    <table.FlexRender cell={cell} />
                  </td>
                );
              })}
            </tr>
          ))}
          {isEmpty && (
            <tr>
              <td colSpan={table.getVisibleLeafColumns().length} className="py-4 text-center text-muted">
                No row matches these filters.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

type LeaderboardHeader = ReturnType<LeaderboardTableInstance["getHeaderGroups"]>[number]["headers"][number];

/** One header cell: a group's title, or a leaf's sort link with aria-sort on the sorted column. */
function LeaderboardHeaderCell({
  table,
  header,
  rankMetric,
  sortLink,
}: {
  table: LeaderboardTableInstance;
  header: LeaderboardHeader;
  rankMetric: ViewMetric;
  sortLink: (id: string) => SortLink;
}) {
  if (header.rowSpan === 0) return null;
  const { column } = header;
  // A group header whose leaves are all hidden has nothing to head.
  if (column.columns.length > 0 && header.colSpan === 0) return null;
  // A placeholder above a shallow leaf (Rank, System) spans both rows and sorts its leaf.
  const isGroup = column.columns.length > 0;
  const sorted = isGroup ? false : column.getIsSorted();
  const ariaSort = sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined;
  const label = typeof column.columnDef.header === "string" ? column.columnDef.header : column.id;
  const link = isGroup ? null : sortLink(column.id);
  return (
    <th
      colSpan={header.colSpan}
      rowSpan={header.rowSpan > 1 ? header.rowSpan : undefined}
      scope={isGroup ? "colgroup" : "col"}
      aria-sort={ariaSort}
      data-header={isGroup ? undefined : column.id}
      data-primary-metric={!isGroup && column.id === rankMetric ? "" : undefined}
      className={`align-bottom whitespace-nowrap ${isGroup ? "border-b border-line text-center font-semibold" : isNumericColumn(column.id) ? "text-right" : ""} ${STICKY_CLASS[column.id] ? `${STICKY_CLASS[column.id]} bg-slate-50` : ""}`}
    >
      {link === null ? (
        <table.FlexRender header={header} />
      ) : (
        <Link
          href={link.href}
          replace
          scroll={false}
          data-sort-link={column.id}
          onClick={link.onClick}
          title={`Sort by ${label} (${link.isDescending ? "descending" : "ascending"})`}
          className="inline-flex items-center gap-1 font-semibold no-underline hover:underline"
        >
          <span className="text-ink">
            <table.FlexRender header={header} />
          </span>
          <span aria-hidden="true" className={sorted ? "text-accent" : "text-slate-500"}>
            {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}
          </span>
        </Link>
      )}
    </th>
  );
}

/** Previous and next page links under the table. */
function LeaderboardPager({ page, hrefOf }: { page: TablePage; hrefOf: (pageNumber: number) => string }) {
  if (page.pageCount <= 1) return null;
  return (
    <nav aria-label="Leaderboard pages" className="flex items-center gap-3 text-sm">
      {page.page > 1 ? (
        <Link href={hrefOf(page.page - 1)} scroll={false} replace>
          Previous page
        </Link>
      ) : (
        <span className="text-muted">Previous page</span>
      )}
      <span>
        Page {page.page} of {page.pageCount}
      </span>
      {page.page < page.pageCount ? (
        <Link href={hrefOf(page.page + 1)} scroll={false} replace>
          Next page
        </Link>
      ) : (
        <span className="text-muted">Next page</span>
      )}
    </nav>
  );
}
