"use client";

import { closeOnEscape } from "./cells";
import { HIDDEN_BY_DEFAULT } from "./columns";
import { useMemo, useSyncExternalStore } from "react";
import { type LeaderboardTrack } from "@/lib/core/leaderboard/views";

/** The reader's choice of columns, remembered per track in localStorage. */

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
export function useHiddenColumns(track: LeaderboardTrack): [ReadonlySet<string>, (next: ReadonlySet<string>) => void] {
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
export function ColumnPicker({ columns, hidden, onChange }: { columns: { id: string; label: string }[]; hidden: ReadonlySet<string>; onChange: (next: ReadonlySet<string>) => void }) {
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
