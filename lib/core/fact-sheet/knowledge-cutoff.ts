/**
 * The leaderboard's cutoff filter compares a base model's knowledge cutoff
 * with the release date. A month cutoff ("2024-06") means the model may know
 * that whole month, so it stands for the month's last day; "before" means the
 * cutoff's last day is strictly before the release's day (the model cannot
 * have seen the release), "after" means on or after it.
 */

/** The last calendar day a cutoff covers, as YYYY-MM-DD. */
export function cutoffLastDay(cutoff: string): string {
  if (cutoff.length === 10) return cutoff;
  const [year, month] = cutoff.split("-").map(Number) as [number, number];
  const last = new Date(Date.UTC(year, month, 0));
  return last.toISOString().slice(0, 10);
}

export type CutoffSide = "before" | "after";

/** Where a cutoff lies relative to a release date (YYYY-MM-DD). */
export function cutoffSide(cutoff: string, releaseDate: string): CutoffSide {
  return cutoffLastDay(cutoff) < releaseDate ? "before" : "after";
}
