import { formatDifference, formatPStatement, formatValue } from "@/lib/format/numbers";
import type { LeaderboardView, MatrixCell } from "./leaderboard-types";
import { METRIC_LABELS } from "./views";

/**
 * The pairwise significance matrix of a view (protocol section 13) as the
 * matrix page shows it: every cell's direction, its difference in points and
 * its Holm-adjusted p already written out, with a sentence for screen
 * readers. Pure: the page passes the view's matrix, the grid draws this.
 */

export type MatrixGridEntry = { id: string; system: string; isBaseline: boolean; rank: number | null; value: string };

export type MatrixGridCell = {
  /** Who is significantly better: the row entry, the column entry, or neither. */
  winner: MatrixCell["winner"];
  /** Row minus column, in points: "+4.2", "−1.3", "0.0". */
  difference: string;
  /** "p < 0.001" or "p = 0.031". */
  p: string;
  /** "Ada vs Bo: Ada significantly better, +4.2 points, p = 0.003". */
  label: string;
};

export type MatrixGrid = {
  metricLabel: string;
  entries: MatrixGridEntry[];
  /** cells[i][j]: entries[i] against entries[j]; null on the diagonal. */
  cells: (MatrixGridCell | null)[][];
};

function verdict(cell: MatrixCell, row: string, column: string): string {
  if (cell.winner === "row") return `${row} significantly better`;
  if (cell.winner === "column") return `${column} significantly better`;
  return "no significant difference";
}

export function matrixGrid(view: Pick<LeaderboardView, "matrix" | "rankMetric">): MatrixGrid | null {
  const { matrix, rankMetric } = view;
  if (matrix === null || matrix.entries.length === 0) return null;
  const entries = matrix.entries.map(
    (entry): MatrixGridEntry => ({
      id: entry.id,
      system: entry.system,
      isBaseline: entry.kind === "baseline",
      rank: entry.rank,
      value: entry.value === null ? "–" : formatValue(entry.value, rankMetric),
    }),
  );
  const cells = matrix.cells.map((row, i) =>
    row.map((cell, j): MatrixGridCell | null => {
      if (cell === null) return null;
      const rowName = entries[i]?.system ?? "";
      const columnName = entries[j]?.system ?? "";
      const difference = formatDifference(cell.difference, rankMetric);
      const p = formatPStatement(cell.pHolm);
      return {
        winner: cell.winner,
        difference,
        p,
        label: `${rowName} vs ${columnName}: ${verdict(cell, rowName, columnName)}, ${difference} points, ${p}`,
      };
    }),
  );
  return { metricLabel: METRIC_LABELS[rankMetric], entries, cells };
}
