"use client";

import type { ReactNode } from "react";
import { useIsHydrated } from "@/components/auth/use-is-hydrated";

/** The chart's numbers as a plain table, for charts with no data table beside them on the page. */
export type FallbackTable = { caption: string; columns: string[]; rows: { key: string; cells: string[] }[] };

export const TABLE_BELOW_NOTE = "The chart needs JavaScript; the table below has every value.";

/**
 * The box every recharts chart is drawn in. recharts draws nothing in the
 * server HTML (an empty wrapper), so until React has hydrated the box is
 * replaced by its data: a one-line note pointing at the data table beside the
 * chart, or, when the page has none, the chart's values as a table. After
 * hydration the box has its height and recharts draws into it.
 */
export function ChartFrame({ className, style, table, note = TABLE_BELOW_NOTE, children }: { className?: string; style?: React.CSSProperties; table?: FallbackTable; note?: string; children: ReactNode }) {
  const isHydrated = useIsHydrated();
  if (isHydrated) {
    return (
      <div className={className} style={style} data-testid="chart-box" aria-hidden="true">
        {children}
      </div>
    );
  }
  if (table === undefined) {
    return (
      <p className="text-sm text-muted" data-testid="chart-fallback">
        {note}
      </p>
    );
  }
  return (
    <div tabIndex={0} className="overflow-x-auto" data-testid="chart-fallback">
      <table className="min-w-full text-xs" data-testid="chart-fallback-table">
        <caption className="text-left text-muted">{table.caption} (the chart needs JavaScript; here are its values)</caption>
        <thead>
          <tr className="border-b border-line">
            {table.columns.map((column, index) => (
              <th key={column} scope="col" className={index === 0 ? "text-left" : "text-right"}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row) => (
            <tr key={row.key} className="border-b border-line">
              {row.cells.map((cell, index) =>
                index === 0 ? (
                  <th key={index} scope="row" className="text-left font-normal">
                    {cell}
                  </th>
                ) : (
                  <td key={index} className="text-right tabular-nums">
                    {cell}
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
