"use client";

import { columnVisibilityFeature, createColumnHelper, rowSortingFeature, tableFeatures } from "@tanstack/react-table";
import { ENTITY_TYPES } from "@/lib/core/dataset/release-schema";
import { formatCount, formatParameterCount, isWholePointGroup } from "@/lib/core/format/numbers";
import type { LeaderboardRow } from "@/lib/core/leaderboard/leaderboard-types";
import { defaultDescending } from "@/lib/core/leaderboard/table-query";
import { METRIC_LABELS, type MetricGroup, type ViewMetric } from "@/lib/core/leaderboard/views";
import { EstimateText } from "../estimate-text";
import type { LeaderboardTableProps } from "./props";
import { Missing, RankCell, SIGNIFICANCE_ORDER, SignificanceCell, SuppressedGroup, SystemCell, isTypeRowHidden, isWholePointRow } from "./cells";

/** The table's columns (TanStack Table), in the order it shows them, and which of them a reader may hide. */

export const features = tableFeatures({ rowSortingFeature, columnVisibilityFeature });

const helper = createColumnHelper<typeof features, LeaderboardRow>();

export const TYPE_COLUMN_PREFIX = "type:";

type ColumnOptions = Pick<LeaderboardTableProps, "track" | "type" | "rankMetric" | "groups" | "hasSignificance" | "typeCounts" | "minGroupN" | "coarseBelowN">;

// Kept whole: the column definitions are one declarative list, read top to bottom in the order the table shows them.
// eslint-disable-next-line max-lines-per-function -- the column list of the table: one entry per column, read as a list
export function buildColumns({ track, type, rankMetric, groups, hasSignificance, typeCounts, minGroupN, coarseBelowN }: ColumnOptions) {
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

export function isNumericColumn(id: string): boolean {
  return !["system", "track", "weights", "date"].includes(id);
}

/** Detail columns start hidden: their facts are written under each system's name (describeEntryDetails). */
const DETAIL_COLUMNS = [
  { id: "params", label: "Parameters" },
  { id: "weights", label: "Weights" },
  { id: "date", label: "Date" },
] as const;
export const HIDDEN_BY_DEFAULT: readonly string[] = DETAIL_COLUMNS.map((column) => column.id);

/** Columns a reader may hide or show: every metric but the ranking one, and the detail columns. Rank, system, n, the ranking metric and the mark always show. */
export function pickableColumns(groups: MetricGroup[], rankMetric: ViewMetric): { id: string; label: string }[] {
  const metrics = groups.flatMap((group) => group.metrics).filter((metric) => metric !== rankMetric);
  return [...metrics.map((metric) => ({ id: metric, label: METRIC_LABELS[metric] })), ...DETAIL_COLUMNS];
}
