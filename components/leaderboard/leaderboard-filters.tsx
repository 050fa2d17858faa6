"use client";

import Link from "next/link";
import { APPROACHES, APPROACH_LABELS } from "@/lib/core/fact-sheet/schema";
import type { LeaderboardFilters } from "@/lib/core/leaderboard/filter-rows";
import { PROVENANCE_TIERS } from "@/lib/core/fact-sheet/tiers";

type Props = {
  filters: LeaderboardFilters;
  onChange: (next: LeaderboardFilters) => void;
  /** Apply now (the submit button, or Enter), without the typing delay. */
  onSubmit: (next: LeaderboardFilters) => void;
  /** The page the form submits to, and the query pairs it keeps (track, scope, sort): without JavaScript it is a plain GET form. */
  action: string;
  hiddenPairs: [string, string][];
  /** The columns the table can be sorted by, and the current sort: phones have no headers to click, and readers without JavaScript submit it with the form. */
  sortOptions: { id: string; label: string }[];
  sort: { id: string; desc: boolean };
  onSortChange: (next: { id: string; desc: boolean }) => void;
  /** The same page with every filter cleared; `onClear` resets the inputs as the link navigates. */
  clearHref: string;
  onClear: () => void;
  /** Problems with the typed parameter range, shown beside the inputs. */
  rangeProblem: string | null;
  hasReported: boolean;
};

/**
 * The leaderboard's filter controls: every input labelled. A GET form the server reads
 * (lib/core/leaderboard/table-query.ts), so it works without JavaScript; with it, changes apply as you type.
 */
// eslint-disable-next-line max-lines-per-function -- one form whose fields share one state and submit together; to split by field group (issue 33 follow-up)
export function LeaderboardFilterControls({ filters, onChange, onSubmit, action, hiddenPairs, clearHref, onClear, sortOptions, sort, onSortChange, rangeProblem, hasReported }: Props) {
  const set = <K extends keyof LeaderboardFilters>(key: K, value: LeaderboardFilters[K]) => onChange({ ...filters, [key]: value });
  return (
    <form
      role="search"
      aria-label="Filter the leaderboard"
      method="get"
      action={action}
      className="flex flex-wrap items-end gap-x-4 gap-y-3 rounded border border-line bg-white p-3 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(filters);
      }}
    >
      {hiddenPairs.map(([key, value]) => (
        <input key={key} type="hidden" name={key} value={value} />
      ))}
      <label className="flex flex-col gap-1">
        <span className="font-medium">Sort by</span>
        <select name="sort" value={sort.id} onChange={(event) => onSortChange({ ...sort, id: event.target.value })} className="rounded border border-line px-2 py-1">
          {sortOptions.map((option) => (
            <option key={option.id} value={option.id}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="font-medium">Order</span>
        <select name="dir" value={sort.desc ? "desc" : "asc"} onChange={(event) => onSortChange({ ...sort, desc: event.target.value === "desc" })} className="rounded border border-line px-2 py-1">
          <option value="desc">Highest first</option>
          <option value="asc">Lowest first</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="font-medium">System or team</span>
        <input
          type="search"
          name="q"
          value={filters.q}
          onChange={(event) => set("q", event.target.value)}
          placeholder="e.g. Llama"
          className="w-44 rounded border border-line px-2 py-1"
        />
      </label>
      <label className="flex flex-col gap-1">
        <span className="font-medium">Entries</span>
        <select
          name="entries"
          value={filters.entries}
          onChange={(event) => set("entries", event.target.value as LeaderboardFilters["entries"])}
          className="rounded border border-line px-2 py-1"
        >
          <option value="all">Baselines and submissions</option>
          <option value="submissions">Submissions only</option>
          <option value="baselines">Baselines only</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="font-medium">Weights</span>
        <select
          name="weights"
          value={filters.weights}
          onChange={(event) => set("weights", event.target.value as LeaderboardFilters["weights"])}
          className="rounded border border-line px-2 py-1"
        >
          <option value="any">Any</option>
          <option value="yes">Open weights</option>
          <option value="no">Closed weights</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="font-medium">Approach</span>
        <select
          name="approach"
          value={filters.approach}
          onChange={(event) => set("approach", event.target.value as LeaderboardFilters["approach"])}
          className="rounded border border-line px-2 py-1"
        >
          <option value="any">Any</option>
          {APPROACHES.map((approach) => (
            <option key={approach} value={approach}>
              {APPROACH_LABELS[approach]}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="font-medium">Source-collection data</span>
        <select
          name="source"
          value={filters.source}
          onChange={(event) => set("source", event.target.value as LeaderboardFilters["source"])}
          className="rounded border border-line px-2 py-1"
        >
          <option value="any">Any</option>
          <option value="no">Not used</option>
          <option value="yes">Used</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="font-medium">Knowledge cutoff</span>
        <select
          name="cutoff"
          value={filters.cutoff}
          onChange={(event) => set("cutoff", event.target.value as LeaderboardFilters["cutoff"])}
          className="rounded border border-line px-2 py-1"
        >
          <option value="any">Any</option>
          <option value="before">Before the release date</option>
          <option value="after">On or after the release date</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="font-medium">Provenance</span>
        <select
          name="tier"
          value={filters.tier}
          onChange={(event) => set("tier", event.target.value as LeaderboardFilters["tier"])}
          className="rounded border border-line px-2 py-1"
        >
          <option value="any">Any tier</option>
          {PROVENANCE_TIERS.map((tier) => (
            <option key={tier} value={tier}>
              {tier}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="flex flex-col gap-1">
        <legend className="font-medium">Parameters</legend>
        <div className="flex items-center gap-1">
          <label>
            <span className="sr-only">At least (parameters)</span>
            <input
              name="minParams"
              value={filters.minParams}
              onChange={(event) => set("minParams", event.target.value)}
              placeholder="min, e.g. 1B"
              aria-describedby="param-hint"
              className="w-28 rounded border border-line px-2 py-1"
            />
          </label>
          <span aria-hidden="true">–</span>
          <label>
            <span className="sr-only">At most (parameters)</span>
            <input
              name="maxParams"
              value={filters.maxParams}
              onChange={(event) => set("maxParams", event.target.value)}
              placeholder="max, e.g. 70B"
              aria-describedby="param-hint"
              className="w-28 rounded border border-line px-2 py-1"
            />
          </label>
        </div>
        <span id="param-hint" className={`text-xs ${rangeProblem ? "text-red-800" : "text-muted"}`}>
          {rangeProblem ?? "Counts like 110M, 8B or 1.5e9; unknown sizes are left out."}
        </span>
      </fieldset>
      {hasReported && (
        <label className="flex flex-col gap-1">
          <span className="font-medium">Reported results</span>
          <select
            name="reported"
            value={filters.reported}
            onChange={(event) => set("reported", event.target.value as LeaderboardFilters["reported"])}
            className="rounded border border-line px-2 py-1"
          >
            <option value="show">Shown</option>
            <option value="hide">Hidden</option>
          </select>
        </label>
      )}
      <button type="submit" className="rounded border border-accent bg-accent px-3 py-1 font-medium text-white">
        Apply filters
      </button>
      <Link href={clearHref} replace scroll={false} onClick={onClear} className="px-1 py-1">
        Clear filters
      </Link>
    </form>
  );
}
