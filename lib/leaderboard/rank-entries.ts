/**
 * Ranks that reflect uncertainty (the rule stated on the leaderboard page).
 *
 * An entry's rank is 1 + the number of entries whose 95% confidence interval
 * lies entirely above its own: whose lower bound is strictly greater than the
 * entry's upper bound. Entries whose intervals overlap (or touch) share a rank,
 * so several entries can be "1" and ranks can skip, as on LMSYS's arena board.
 * Entries without an interval (reported results, types without samples) get
 * no rank. The rule is monotone: an entry whose interval lies entirely above
 * another's always has a smaller rank.
 */

export const RANK_RULE =
  "An entry's rank is 1 + the number of entries whose 95% confidence interval lies entirely above its own " +
  "(lower bound strictly greater than its upper bound). Entries whose intervals overlap share a rank; " +
  "reported results have no interval and no rank.";

export type RankItem = { id: string; interval: readonly [number, number] | null };

function isInterval(interval: readonly [number, number] | null): interval is readonly [number, number] {
  return interval !== null && Number.isFinite(interval[0]) && Number.isFinite(interval[1]);
}

/** Index of the first value in ascending `sorted` that is greater than `x`. */
function firstGreater(sorted: Float64Array, x: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] ?? 0) > x) {
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  return low;
}

/** The rank of every item by id, null for items without a finite interval. O(n log n). */
export function rankByIntervals(items: readonly RankItem[]): Map<string, number | null> {
  const lowers = Float64Array.from(
    items.filter((item) => isInterval(item.interval)).map((item) => item.interval?.[0] ?? 0),
  ).sort();
  const ranks = new Map<string, number | null>();
  for (const item of items) {
    if (!isInterval(item.interval)) {
      ranks.set(item.id, null);
      continue;
    }
    const above = lowers.length - firstGreater(lowers, item.interval[1]);
    ranks.set(item.id, 1 + above);
  }
  return ranks;
}
