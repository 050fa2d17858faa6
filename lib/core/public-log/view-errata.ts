import type { LeaderboardView } from "@/lib/core/leaderboard/leaderboard-types";
import { formatValue } from "@/lib/core/format/numbers";

/**
 * What the public leaderboard of a release shows, reduced to what a re-score
 * can change and a reader cites: per overall view (open, closed, unified),
 * each ranked entry's rank interval and shown value, and the verdict of every
 * pair of ranked entries (protocol section 13). Public numbers only, as the
 * page prints them (strings): no count, nothing of the slices.
 *
 * The public log keeps the last state it recorded per release; a re-score's
 * errata are the differences between that state and the views after it
 * (lib/domain/public-log/record-view-errata.ts). An entry that is not ranked
 * now (stale until re-scored, hidden) keeps its last shown state, so a gold
 * fix re-scored entry by entry reports each pair once, old verdict to new.
 */

type RowState = { system: string; rank: string; value: string };
type ViewState = { metric: string; rows: Record<string, RowState>; pairs: Record<string, string> };
export type PublicViewState = Record<string, ViewState>;

type RankChange = { view: string; entry: string; system: string; before: string; after: string };
type ValueChange = RankChange & { metric: string };
type VerdictChange = { view: string; entry: string; system: string; other: string; other_system: string; before: string; after: string };
export type ViewErrata = { ranks: RankChange[]; values: ValueChange[]; verdicts: VerdictChange[] };

function rankText(rank: number, rankHi: number | null): string {
  return rankHi === null || rankHi === rank ? String(rank) : `${rank}-${rankHi}`;
}

/** A pair's key: the two ids in ascending order joined by "+"; its verdict is read from the first's side. */
function pairKey(a: string, b: string): [string, string, string] {
  return a < b ? [`${a}+${b}`, a, b] : [`${b}+${a}`, b, a];
}

export function viewStateOf(view: LeaderboardView): ViewState {
  const rows: Record<string, RowState> = {};
  const ranked = view.rows.filter((row) => row.entryId !== null && row.rank !== null && !row.isStale);
  for (const row of ranked) {
    const estimate = row.metrics[view.rankMetric];
    rows[row.entryId as string] = { system: row.system, rank: rankText(row.rank as number, row.rankHi), value: estimate ? formatValue(estimate.value, view.rankMetric) : "" };
  }
  const pairs: Record<string, string> = {};
  const ids = Object.keys(rows).sort();
  for (const [index, first] of ids.entries()) {
    for (const second of ids.slice(index + 1)) {
      const reading = view.readPair(first, second);
      if (reading !== null) pairs[pairKey(first, second)[0]] = reading.verdict;
    }
  }
  return { metric: view.rankMetric, rows, pairs };
}

/** The differences of `after` from `before` (only where both show something), and the state to keep: `before` updated by everything `after` shows. */
export function diffViewStates(before: PublicViewState | null, after: PublicViewState): { errata: ViewErrata; next: PublicViewState } {
  const errata: ViewErrata = { ranks: [], values: [], verdicts: [] };
  const next: PublicViewState = {};
  const views = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after)])].sort();
  for (const view of views) {
    const old: ViewState = before?.[view] ?? { metric: "", rows: {}, pairs: {} };
    const now: ViewState = after[view] ?? old;
    for (const [entry, row] of Object.entries(now.rows).sort(([a], [b]) => (a < b ? -1 : 1))) {
      const was = old.rows[entry];
      if (was === undefined) continue;
      if (was.rank !== row.rank) errata.ranks.push({ view, entry, system: row.system, before: was.rank, after: row.rank });
      if (was.value !== row.value) errata.values.push({ view, entry, system: row.system, metric: now.metric, before: was.value, after: row.value });
    }
    for (const [key, verdict] of Object.entries(now.pairs).sort(([a], [b]) => (a < b ? -1 : 1))) {
      const was = old.pairs[key];
      if (was === undefined || was === verdict) continue;
      const [first = "", second = ""] = key.split("+");
      errata.verdicts.push({
        view,
        entry: first,
        system: now.rows[first]?.system ?? first,
        other: second,
        other_system: now.rows[second]?.system ?? second,
        before: was,
        after: verdict,
      });
    }
    next[view] = { metric: now.metric, rows: { ...old.rows, ...now.rows }, pairs: { ...old.pairs, ...now.pairs } };
  }
  return { errata, next };
}
