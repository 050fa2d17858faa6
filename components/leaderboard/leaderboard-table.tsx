"use client";

import { TierBadge } from "@/components/provenance/tier-badge";
import {
  columnVisibilityFeature,
  createColumnHelper,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ReactTable,
  type SortingState,
  } from "@tanstack/react-table";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { createContext, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore, useTransition, type KeyboardEvent, type MouseEvent, type ReactNode } from "react";
import { reportedPaperHref } from "@/lib/core/dataset/paper";
import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-schema";
import { DEFAULT_FILTERS, filtersToSearchParams, type LeaderboardFilters } from "@/lib/core/leaderboard/filter-rows";
import { formatCount, formatParameterCount, formatRankInterval, formatSuppressedGroup, isWholePointGroup } from "@/lib/core/format/numbers";
import { formatPBucket } from "@/lib/core/format/p-values";
import type { LeaderboardRow } from "@/lib/core/leaderboard/leaderboard-types";
import { describeRank, describeSignificance } from "@/lib/core/leaderboard/describe-verdict";
import { defaultDescending, type TablePage, type TableSort } from "@/lib/core/leaderboard/table-query";
import { METRIC_LABELS, type LeaderboardTrack, type MetricGroup, type ViewMetric } from "@/lib/core/leaderboard/views";
import { Badge, EstimateText } from "./estimate-text";
import { LeaderboardFilterControls } from "./leaderboard-filters";

// Filtering, sorting and paging happen on the server (lib/core/leaderboard/table-query.ts);
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
  /** The release's min_group_n: a per-type cell without numbers says why (section 12). */
  minGroupN: number;
  /** Paper and code links of the page's entries, from their fact sheets. */
  rowLinks: RowLinks;
  /** Public group rates of groups below this many ranking samples are whole points (section 12); null when the page does not know. */
  coarseBelowN: number | null;
};

/** Sorting by the mark: significantly better first. */
const SIGNIFICANCE_ORDER = { better: 0, "no significant difference": 1, worse: 2 } as const;

/** The mark against the best baseline with its p on the page (section 13's test of the pair). */
function SignificanceCell({ row }: { row: LeaderboardRow }) {
  const mark = row.significance;
  if (mark === null) {
    return <span className="text-muted">–</span>;
  }
  const description = describeSignificance(mark);
  const isBetter = mark.verdict === "better";
  const isWorse = mark.verdict === "worse";
  const symbol = isBetter ? "▲" : isWorse ? "▼" : "·";
  const tone = isBetter ? "font-bold text-green-800" : isWorse ? "font-bold text-red-800" : "text-muted";
  return (
    <span className={`whitespace-nowrap ${tone}`} data-testid="mark" data-mark={isBetter ? "better" : isWorse ? "worse" : "none"} title={description}>
      <span aria-hidden="true">{symbol}</span> <span className="text-xs font-normal">{formatPBucket(mark.pBucket)}</span>
      <span className="sr-only">{description}</span>
    </span>
  );
}

/** Escape closes an open disclosure popover (rank reason, column picker) and puts focus back on its summary. */
function closeOnEscape(event: KeyboardEvent<HTMLDetailsElement>) {
  const details = event.currentTarget;
  if (event.key !== "Escape" || !details.open) return;
  event.preventDefault();
  details.open = false;
  details.querySelector("summary")?.focus();
}

/** The rank, with its reason one tap away (a disclosure widget, not a tooltip). */
function RankCell({ row }: { row: LeaderboardRow }) {
  if (row.rank === null) return <Missing />;
  const rankHi = row.rankHi ?? row.rank;
  const interval = formatRankInterval(row.rank, rankHi);
  if (row.rankReason === null) return <span>{interval}</span>;
  return (
    <details data-testid="rank" data-rank={row.rank} data-rank-hi={rankHi} className="relative" onKeyDown={closeOnEscape}>
      <summary className="cursor-pointer font-semibold whitespace-nowrap">{interval}</summary>
      <p className="absolute left-0 z-30 mt-1 w-64 rounded border border-line bg-white p-2 text-xs font-normal whitespace-normal text-ink shadow" data-testid="rank-reason">
        {describeRank(row.rank, rankHi, row.rankReason)}
      </p>
    </details>
  );
}

/** A row's paper and code links from its fact sheet (lib/domain/leaderboard/find-entry-links.ts), by entry id. */
export type RowLinks = Record<string, { paper: string | null; code: string | null }>;

const RowLinksContext = createContext<RowLinks>({});

/** "paper · code" under a system's name: the fact sheet's links, or a reported row's paper. */
function RowLinkLine({ row }: { row: LeaderboardRow }) {
  const links = useContext(RowLinksContext);
  const own = row.entryId === null ? undefined : links[row.entryId];
  const paper = row.kind === "reported" ? reportedPaperHref(row.source) : (own?.paper ?? null);
  const code = row.kind === "reported" ? null : (own?.code ?? null);
  if (paper === null && code === null) return null;
  const external = { rel: "noopener noreferrer nofollow" };
  return (
    <div className="text-xs" data-testid="row-links">
      {paper !== null && (
        <a href={paper} {...(paper.startsWith("/") ? {} : external)} aria-label={`Paper of ${row.system}`}>
          paper
        </a>
      )}
      {paper !== null && code !== null && " · "}
      {code !== null && (
        <a href={code} {...external} aria-label={`Code of ${row.system}`}>
          code
        </a>
      )}
    </div>
  );
}

function SystemCell({ row }: { row: LeaderboardRow }) {
  return (
    <div className="min-w-40">
      {row.entryId ? <Link href={`/entries/${row.entryId}`}>{row.system}</Link> : <span>{row.system}</span>}
      {row.kind === "baseline" && <Badge tone="baseline">baseline</Badge>}
      {row.kind !== "reported" && <TierBadge tier={row.tier} />}
      {row.kind === "reported" && (
        <Badge tone="reported" title={`Reported in a paper (${row.source ?? "source unknown"}), on the whole test split: no interval, no rank, no significance test`}>
          reported
        </Badge>
      )}
      {row.isStale && (
        <Badge tone="stale" title="Scored with an older scorer version or gold; it will be re-scored">
          stale
        </Badge>
      )}
      <div className="text-xs text-muted">{row.kind === "reported" ? `${row.source ?? "a paper"} · whole test split, not the ranking slice` : row.team}</div>
      <RowLinkLine row={row} />
      {row.kind !== "reported" && <div className="text-xs text-muted" data-testid="entry-details">{describeEntryDetails(row)}</div>}
    </div>
  );
}

/** "8B params · open weights · 2026-12-01": the secondary facts of an entry, always visible beside its name. */
export function describeEntryDetails(row: Pick<LeaderboardRow, "parameterCount" | "isOpenWeights" | "date">): string {
  const parts = [
    row.parameterCount === null ? "size not stated" : `${formatParameterCount(row.parameterCount)} params`,
    row.isOpenWeights === null ? "weights not stated" : row.isOpenWeights ? "open weights" : "closed weights",
  ];
  if (row.date) parts.push(row.date);
  return parts.join(" · ");
}

function Missing() {
  return <span className="text-muted">–</span>;
}

/** A group whose numbers the public report does not show says why, in the cell (section 12). */
function SuppressedGroup({ n, minGroupN }: { n: number | null; minGroupN: number }) {
  const text = n === 0 ? "no samples" : formatSuppressedGroup(n, minGroupN);
  return (
    <span className="text-xs whitespace-nowrap text-muted" data-testid="suppressed-cell">
      {text}
    </span>
  );
}

/** In a type view, an entry with no number in any column is one whose type group is not shown. */
function isTypeRowHidden(row: LeaderboardRow, type: EntityType | null): boolean {
  return type !== null && row.kind !== "reported" && Object.values(row.metrics).every((estimate) => estimate === null || estimate === undefined);
}

type ColumnOptions = Pick<Props, "track" | "type" | "rankMetric" | "groups" | "hasSignificance" | "typeCounts" | "minGroupN" | "coarseBelowN">;

/** A row's value in a type view is its type group's: whole points in a small group (section 12), never a paper's. */
function isWholePointRow(row: LeaderboardRow, type: EntityType | null, coarseBelowN: number | null): boolean {
  return type !== null && row.kind !== "reported" && isWholePointGroup(row.n, coarseBelowN);
}

// Kept whole: the column definitions are one declarative list, read top to bottom in the order the table shows them.
// eslint-disable-next-line max-lines-per-function -- the column list of the table: one entry per column, read as a list
function buildColumns({ track, type, rankMetric, groups, hasSignificance, typeCounts, minGroupN, coarseBelowN }: ColumnOptions) {
  const sortable = (id: string) => ({ id, sortDescFirst: defaultDescending(id) });
  const entryColumns = [
    helper.accessor((row) => row.rank ?? undefined, { ...sortable("rank"), header: "Rank", cell: (info) => <RankCell row={info.row.original} /> }),
    helper.accessor((row) => row.system, { ...sortable("system"), header: "System", cell: (info) => <SystemCell row={info.row.original} /> }),
    ...(track === "unified" ? [helper.accessor((row) => row.track, { ...sortable("track"), header: "Track", cell: (info) => info.getValue() })] : []),
    helper.accessor((row) => row.n ?? undefined, { ...sortable("n"), header: "n", cell: (info) => (info.getValue() === undefined ? <Missing /> : formatCount(info.getValue())) }),
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
            cell: (info) =>
              isTypeRowHidden(info.row.original, type) ? (
                <SuppressedGroup n={info.row.original.n} minGroupN={minGroupN} />
              ) : (
                <EstimateText estimate={info.row.original.metrics[metric]} metric={metric} isStacked isWholePoints={isWholePointRow(info.row.original, type, coarseBelowN)} />
              ),
          }),
        ),
      ),
    }),
  );

  const significanceColumns =
    hasSignificance
      ? [
          helper.accessor((row) => (row.significance === null ? undefined : SIGNIFICANCE_ORDER[row.significance.verdict]), {
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
                  header: typeCounts[entityType] === undefined ? entityType : `${entityType} (n=${formatCount(typeCounts[entityType])})`,
                  cell: (info) => {
                    const estimate = info.row.original.byType?.[entityType];
                    if (estimate !== undefined && estimate.value === null && info.row.original.kind !== "reported") {
                      return <SuppressedGroup n={estimate.n} minGroupN={minGroupN} />;
                    }
                    return (
                      <span data-type-cell={entityType}>
                        <EstimateText
                          estimate={estimate && estimate.value !== null ? { value: estimate.value, ci95: estimate.ci95 } : null}
                          metric={rankMetric}
                          isStacked
                          isWholePoints={info.row.original.kind !== "reported" && isWholePointGroup(estimate?.n, coarseBelowN)}
                        />
                      </span>
                    );
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

/** Detail columns start hidden: their facts are written under each system's name (describeEntryDetails). */
const DETAIL_COLUMNS = [
  { id: "params", label: "Parameters" },
  { id: "weights", label: "Weights" },
  { id: "date", label: "Date" },
] as const;
const HIDDEN_BY_DEFAULT: readonly string[] = DETAIL_COLUMNS.map((column) => column.id);

/** Columns a reader may hide or show: every metric but the ranking one, and the detail columns. Rank, system, n, the ranking metric and the mark always show. */
function pickableColumns(groups: MetricGroup[], rankMetric: ViewMetric): { id: string; label: string }[] {
  const metrics = groups.flatMap((group) => group.metrics).filter((metric) => metric !== rankMetric);
  return [...metrics.map((metric) => ({ id: metric, label: METRIC_LABELS[metric] })), ...DETAIL_COLUMNS];
}

const COLUMNS_STORAGE_PREFIX = "irc-bench:leaderboard-hidden-columns:";

const COLUMNS_CHANGED_EVENT = "irc-bench:leaderboard-columns";

function subscribeToColumns(onChange: () => void): () => void {
  window.addEventListener("storage", onChange);
  window.addEventListener(COLUMNS_CHANGED_EVENT, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(COLUMNS_CHANGED_EVENT, onChange);
  };
}

function parseHiddenColumns(stored: string | null): ReadonlySet<string> {
  if (stored === null) return new Set(HIDDEN_BY_DEFAULT);
  try {
    const ids = JSON.parse(stored) as unknown;
    return Array.isArray(ids) ? new Set(ids.filter((id): id is string => typeof id === "string")) : new Set(HIDDEN_BY_DEFAULT);
  } catch {
    return new Set(HIDDEN_BY_DEFAULT);
  }
}

/**
 * The reader's hidden columns of a track, remembered in this browser. The
 * server (and the first render) uses the defaults, so the page is the same
 * for everyone and can be cached; the stored choice applies after hydration.
 */
function useHiddenColumns(track: LeaderboardTrack): [ReadonlySet<string>, (next: ReadonlySet<string>) => void] {
  const key = COLUMNS_STORAGE_PREFIX + track;
  const stored = useSyncExternalStore(
    subscribeToColumns,
    () => window.localStorage.getItem(key),
    () => null,
  );
  const hidden = useMemo(() => parseHiddenColumns(stored), [stored]);
  const update = (next: ReadonlySet<string>) => {
    window.localStorage.setItem(key, JSON.stringify([...next]));
    window.dispatchEvent(new Event(COLUMNS_CHANGED_EVENT));
  };
  return [hidden, update];
}

/** The column picker: a disclosure with one checkbox per optional column. */
function ColumnPicker({ columns, hidden, onChange }: { columns: { id: string; label: string }[]; hidden: ReadonlySet<string>; onChange: (next: ReadonlySet<string>) => void }) {
  const hiddenCount = columns.filter((column) => hidden.has(column.id)).length;
  return (
    <details className="relative" data-testid="column-picker" onKeyDown={closeOnEscape}>
      <summary className="cursor-pointer rounded border border-line bg-white px-3 py-1 text-ink hover:bg-slate-100">
        Columns{hiddenCount > 0 ? ` (${hiddenCount} hidden)` : ""}
      </summary>
      <fieldset className="absolute z-40 mt-1 w-64 space-y-1 rounded border border-line bg-white p-3 shadow">
        <legend className="sr-only">Columns to show</legend>
        <p className="text-xs text-muted">Rank, system, n, the ranking metric and the significance mark are always shown.</p>
        {columns.map((column) => (
          <label key={column.id} className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={!hidden.has(column.id)}
              onChange={(event) => {
                const next = new Set(hidden);
                if (event.target.checked) next.delete(column.id);
                else next.add(column.id);
                onChange(next);
              }}
            />
            {column.label}
          </label>
        ))}
      </fieldset>
    </details>
  );
}

/** Rank and system stay in view when the table scrolls sideways (opaque, so scrolled cells pass under them). */
const STICKY_CLASS: Partial<Record<string, string>> = {
  // An open rank popover lifts its cell above the sticky System column and the rows below it.
  rank: "sticky left-0 z-20 w-14 min-w-14 max-w-14 has-[details[open]]:z-40",
  system: "sticky left-14 z-20 shadow-[1px_0_0_var(--color-line)]",
};

function rowBackground(kind: LeaderboardRow["kind"]): string {
  return kind === "baseline" ? "bg-amber-50" : kind === "reported" ? "bg-slate-50" : "bg-white";
}

/** A card's per-type numbers (the per-type toggle on a phone): the ranking metric of each entity type, whole points in small groups. */
function CardTypeValues({ row, rankMetric, minGroupN, coarseBelowN }: { row: LeaderboardRow; rankMetric: ViewMetric; minGroupN: number; coarseBelowN: number | null }) {
  return (
    <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 border-t border-line pt-2 text-sm" data-testid="card-type-values" aria-label={`${METRIC_LABELS[rankMetric]} by entity type`}>
      {ENTITY_TYPES.map((entityType) => {
        const estimate = row.byType?.[entityType];
        const isHidden = estimate !== undefined && estimate.value === null && row.kind !== "reported";
        return (
          <div key={entityType} data-type={entityType} className="flex items-baseline justify-between gap-2">
            <dt className="text-muted">{entityType}</dt>
            <dd className="text-right">
              {isHidden ? (
                <SuppressedGroup n={estimate.n} minGroupN={minGroupN} />
              ) : (
                <EstimateText
                  estimate={estimate && estimate.value !== null ? { value: estimate.value, ci95: estimate.ci95 } : null}
                  metric={rankMetric}
                  isStacked
                  isWholePoints={row.kind !== "reported" && isWholePointGroup(estimate?.n, coarseBelowN)}
                />
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** Below the md breakpoint the table becomes one card per row: rank, system, the ranking metric with its interval, the mark. */
function LeaderboardCards({
  rows,
  rankMetric,
  hasSignificance,
  type,
  minGroupN,
  coarseBelowN,
  showTypes,
}: {
  rows: LeaderboardRow[];
  rankMetric: ViewMetric;
  hasSignificance: boolean;
  type: EntityType | null;
  minGroupN: number;
  coarseBelowN: number | null;
  /** The per-type toggle is on: each card lists the ranking metric per entity type too. */
  showTypes: boolean;
}) {
  if (rows.length === 0) return <p className="text-center text-muted md:hidden">No row matches these filters.</p>;
  return (
    <ol className="space-y-2 md:hidden" data-testid="leaderboard-cards" aria-label="Leaderboard rows">
      {rows.map((row) => (
        <li key={row.key} data-kind={row.kind} className={`rounded border border-line p-3 ${rowBackground(row.kind)}`}>
          <div className="flex items-start gap-3">
            <div className="w-10 shrink-0 text-lg tabular-nums">
              <span className="sr-only">Rank </span>
              <RankCell row={row} />
            </div>
            <div className="min-w-0 flex-1 break-words">
              <SystemCell row={row} />
            </div>
          </div>
          <dl className="mt-2 flex flex-wrap items-baseline gap-x-4 gap-y-1 text-sm">
            <div data-testid="card-primary-metric">
              <dt className="inline text-muted">{METRIC_LABELS[rankMetric]} </dt>
              <dd className="inline font-semibold">
                {isTypeRowHidden(row, type) ? <SuppressedGroup n={row.n} minGroupN={minGroupN} /> : <EstimateText estimate={row.metrics[rankMetric]} metric={rankMetric} isWholePoints={isWholePointRow(row, type, coarseBelowN)} />}
              </dd>
            </div>
            {hasSignificance && (
              <div>
                <dt className="sr-only">vs best baseline</dt>
                <dd>
                  <SignificanceCell row={row} />
                </dd>
              </div>
            )}
            {row.n !== null && (
              <div>
                <dt className="inline text-muted">n </dt>
                <dd className="inline tabular-nums">{formatCount(row.n)}</dd>
              </div>
            )}
          </dl>
          {showTypes && row.byType !== null && <CardTypeValues row={row} rankMetric={rankMetric} minGroupN={minGroupN} coarseBelowN={coarseBelowN} />}
        </li>
      ))}
    </ol>
  );
}

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
