"use client";

import { useState } from "react";
import type { MatrixGrid, MatrixGridCell } from "@/lib/core/leaderboard/matrix-grid";

const CELL_TONES: Record<MatrixGridCell["winner"], string> = {
  row: "bg-green-100 text-green-900",
  column: "bg-red-100 text-red-900",
  none: "bg-slate-100 text-slate-700",
};

// A symbol beside the colour, so the direction reads without colour: ▲ the row entry is better, ▼ the column entry.
const CELL_SYMBOLS: Record<MatrixGridCell["winner"], string> = { row: "▲", column: "▼", none: "·" };

type Focus = { row: number; column: number } | null;

/**
 * The pairwise significance matrix as a grid that scrolls inside its own
 * region, with the row names sticky; hovering a cell marks its row and
 * column headers. Every string comes from lib/core/leaderboard/matrix-grid.ts.
 */
// eslint-disable-next-line max-lines-per-function -- one grid: header row, body rows and legend share the cell layout
export function PairwiseMatrixGrid({ grid, caption }: { grid: MatrixGrid; caption: string }) {
  const [focus, setFocus] = useState<Focus>(null);
  const isMarked = (index: number, axis: "row" | "column") => focus !== null && focus[axis] === index;
  return (
    <div
      role="region"
      aria-label={caption}
      tabIndex={0}
      data-testid="matrix-region"
      className="relative max-w-full overflow-x-auto rounded border border-line bg-white"
      onMouseLeave={() => setFocus(null)}
    >
      <table className="text-xs" data-testid="matrix">
        <caption className="px-2 py-1 text-left text-sm text-muted">{caption}</caption>
        <thead>
          <tr className="border-b border-line">
            <th scope="col" className="sticky left-0 z-10 bg-white align-bottom">
              <span className="sr-only">Row entry against column entry</span>
            </th>
            {grid.entries.map((entry, index) => (
              <th
                key={entry.id}
                scope="col"
                title={entry.system}
                className={`min-w-24 max-w-40 align-bottom font-medium ${isMarked(index, "column") ? "bg-amber-100" : ""}`}
              >
                <span className="block text-muted" aria-hidden="true">
                  {index + 1}
                </span>
                <span className="block break-words" data-testid="matrix-column-name">{entry.system}</span>
                {entry.isBaseline && <span className="block text-[0.65rem] font-normal text-amber-900">baseline</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {grid.entries.map((entry, i) => (
            <tr key={entry.id} className="border-b border-line">
              <th
                scope="row"
                className={`sticky left-0 z-10 min-w-40 max-w-56 border-r border-line font-medium ${isMarked(i, "row") ? "bg-amber-100" : "bg-white"}`}
              >
                <span className="flex items-baseline gap-1">
                  <span className="text-muted" aria-hidden="true">
                    {i + 1}.
                  </span>
                  <span className="break-words" data-testid="matrix-row-name">
                    {entry.system}
                  </span>
                </span>
                <span className="block font-normal whitespace-nowrap text-muted">
                  {entry.isBaseline && <span className="mr-1 rounded border border-amber-700 bg-amber-50 px-1 text-amber-900">baseline</span>}
                  {entry.value}
                  {entry.rank !== null ? ` · rank ${entry.rank}` : ""}
                </span>
              </th>
              {(grid.cells[i] ?? []).map((cell, j) =>
                cell === null ? (
                  <td key={`${entry.id}:${j}`} className="bg-slate-300 text-center text-slate-600" aria-label={`${entry.system} against itself`}>
                    —
                  </td>
                ) : (
                  <td
                    key={`${entry.id}:${j}`}
                    aria-label={cell.label}
                    title={cell.label}
                    data-testid="matrix-cell"
                    data-winner={cell.winner}
                    onMouseEnter={() => setFocus({ row: i, column: j })}
                    className={`min-w-16 text-center whitespace-nowrap tabular-nums ${CELL_TONES[cell.winner]}`}
                  >
                    <span className="block font-semibold">
                      <span aria-hidden="true">{CELL_SYMBOLS[cell.winner]}</span> {cell.difference}
                    </span>
                    <span className="block">{cell.p}</span>
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
