import { formatDifference, formatRankInterval, formatValue } from "@/lib/core/format/numbers";
import { formatPBucket } from "@/lib/core/format/p-values";
import { describeVerdict } from "./describe-verdict";
import type { LeaderboardView, MatrixCell } from "./leaderboard-types";
import { METRIC_LABELS } from "./views";

/**
 * The pairwise significance matrix of a view (protocol section 13) as the
 * matrix page shows it: every cell's direction, its difference of the shown
 * values in points and its p bucket already written out, with the pair's one
 * sentence (lib/core/leaderboard/describe-verdict.ts) for screen readers. Pure: the page passes the view's matrix, the grid draws this.
 */

type MatrixGridEntry = { id: string; system: string; isBaseline: boolean; rank: string | null; value: string };

export type MatrixGridCell = {
  /** Who is significantly better: the row entry, the column entry, or neither. */
  winner: MatrixCell["winner"];
  /** Row minus column, in points: "+4.2", "−1.3", "0.0". */
  difference: string;
  /** "p < 0.001" ... "p ≥ 0.05". */
  p: string;
  /** "Ada vs Bo: Ada is significantly better than Bo (p < 0.01), +4.2 points". */
  label: string;
};

export type MatrixGrid = {
  metricLabel: string;
  entries: MatrixGridEntry[];
  /** cells[i][j]: entries[i] against entries[j]; null on the diagonal. */
  cells: (MatrixGridCell | null)[][];
};

export function matrixGrid(view: Pick<LeaderboardView, "matrix" | "rankMetric">): MatrixGrid | null {
  const { matrix, rankMetric } = view;
  if (matrix === null || matrix.entries.length === 0) return null;
  const entries = matrix.entries.map(
    (entry): MatrixGridEntry => ({
      id: entry.id,
      system: entry.system,
      isBaseline: entry.kind === "baseline",
      rank: entry.rank === null ? null : formatRankInterval(entry.rank, entry.rankHi ?? entry.rank),
      value: entry.value === null ? "–" : formatValue(entry.value, rankMetric),
    }),
  );
  const cells = matrix.cells.map((row, i) =>
    row.map((cell, j): MatrixGridCell | null => {
      if (cell === null) return null;
      const rowName = entries[i]?.system ?? "";
      const columnName = entries[j]?.system ?? "";
      const difference = formatDifference(cell.difference, rankMetric);
      return {
        winner: cell.winner,
        difference,
        p: formatPBucket(cell.pBucket),
        label: `${rowName} vs ${columnName}: ${rowName} is ${describeVerdict(cell, columnName)}, ${difference} points`,
      };
    }),
  );
  return { metricLabel: METRIC_LABELS[rankMetric], entries, cells };
}
