"use client";

import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-schema";
import { formatCount, isWholePointGroup } from "@/lib/core/format/numbers";
import type { LeaderboardRow } from "@/lib/core/leaderboard/leaderboard-types";
import { METRIC_LABELS, type ViewMetric } from "@/lib/core/leaderboard/views";
import { EstimateText } from "../estimate-text";
import { RankCell, SignificanceCell, SuppressedGroup, SystemCell, isTypeRowHidden, isWholePointRow, rowBackground } from "./cells";

/** Below the md breakpoint: one card per row. */

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
export function LeaderboardCards({
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
