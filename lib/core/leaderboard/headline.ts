import { formatValue } from "@/lib/core/format/numbers";
import { describeVerdict } from "./describe-verdict";
import type { LeaderboardView } from "./leaderboard-types";
import { METRIC_LABELS, TRACK_LABELS } from "./views";

/**
 * A view's answer to a reader's first question, in one line: its best system and the pair's one verdict
 * against the runner-up (protocol §13: the same test, and the same words, as the matrix and /compare).
 * Read from the view's pairwise matrix, whose entries are in the view's public order.
 */
export type ViewHeadline = { track: string; bestId: string; text: string };

export function viewHeadline(view: LeaderboardView): ViewHeadline | null {
  const matrix = view.matrix;
  const best = matrix?.entries[0];
  if (matrix === null || best === undefined) return null;
  const metric = METRIC_LABELS[view.rankMetric];
  const value = best.value === null ? "" : ` (${metric} ${formatValue(best.value, view.rankMetric)})`;
  const lead = `${TRACK_LABELS[view.track]}: best is ${best.system}${value}`;
  const runnerUp = matrix.entries[1];
  const cell = matrix.cells[0]?.[1];
  if (runnerUp === undefined || cell === null || cell === undefined) return { track: view.track, bestId: best.id, text: `${lead}, the only ranked entry.` };
  return { track: view.track, bestId: best.id, text: `${lead}, ${describeVerdict(cell, `the runner-up ${runnerUp.system}`)}.` };
}
