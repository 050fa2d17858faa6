import type { PairedRanks } from "@/lib/core/ranking/paired-ranks";
import { readPair } from "@/lib/core/disclosure/disclose";
import type { BestBaseline, SignificanceMark } from "../leaderboard/leaderboard-types";

/**
 * Significance against the best baseline: the section 13 test of the pair
 * (the same test the ranks count), not a separate comparison, so a mark and
 * the ranks never say two things.
 */

/** `value`: the shown value; `order`: the public point estimate it is picked by (section 12: the perturbed count over n). */
type BaselineCandidate = { id: string; name: string; value: number | null; order: number | null };

/** The baseline with the highest public point estimate; ties go to the smaller entry id. */
export function pickBestBaseline(
  candidates: readonly BaselineCandidate[],
  metric: BestBaseline["metric"],
): BestBaseline | null {
  let best: (BestBaseline & { order: number }) | null = null;
  for (const candidate of candidates) {
    if (candidate.value === null || candidate.order === null || !Number.isFinite(candidate.order)) {
      continue;
    }
    if (best === null || candidate.order > best.order || (candidate.order === best.order && candidate.id < best.id)) {
      best = { id: candidate.id, name: candidate.name, metric, value: candidate.value, order: candidate.order };
    }
  }
  if (best === null) return null;
  const { order: _order, ...shown } = best;
  return shown;
}

/** The mark of entry `entry` against `baseline`, both indices into the view's paired ranks; `shownValue` is the entry's shown value of the view's metric. */
export function significanceMark(ranks: PairedRanks, entry: number, baseline: number, best: BestBaseline, shownValue: number | null): SignificanceMark {
  return { baselineId: best.id, baselineName: best.name, metric: best.metric, ...readPair(ranks.verdict(entry, baseline), shownValue, best.value) };
}

