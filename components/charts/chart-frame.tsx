"use client";

import type { ReactNode } from "react";
import { useIsHydrated } from "@/components/auth/use-is-hydrated";

export const TABLE_BELOW_NOTE = "The chart needs JavaScript; the table below has every value.";

/**
 * The box every recharts chart is drawn in. recharts draws nothing in the
 * server HTML (an empty wrapper), so until React has hydrated the box is
 * replaced by its data: a one-line note pointing at the data table beside the
 * chart (every chart of the site has one). After
 * hydration the box has its height and recharts draws into it.
 */
export function ChartFrame({ className, style, note = TABLE_BELOW_NOTE, children }: { className?: string; style?: React.CSSProperties; note?: string; children: ReactNode }) {
  const isHydrated = useIsHydrated();
  if (isHydrated) {
    return (
      <div className={className} style={style} data-testid="chart-box" aria-hidden="true">
        {children}
      </div>
    );
  }
  return (
    <p className="text-sm text-muted" data-testid="chart-fallback">
      {note}
    </p>
  );
}
