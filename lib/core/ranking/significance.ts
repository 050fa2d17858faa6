import type { PairedRanks } from "@/lib/core/ranking/paired-ranks";
import { readPair } from "@/lib/core/disclosure/disclose";
import type { BestBaseline, SignificanceMark } from "../leaderboard/leaderboard-types";

/**
 * Significance against the best baseline: the section 13 test of the pair
 * (the same test the ranks count), not a separate comparison, so a mark and
 * the ranks never say two things.
 */

type BaselineCandidate = { id: string; name: string; value: number | null };

/** The baseline with the highest value; ties go to the first in `candidates` order. */
export function pickBestBaseline(
  candidates: readonly BaselineCandidate[],
  metric: BestBaseline["metric"],
): BestBaseline | null {
  let best: BestBaseline | null = null;
  for (const candidate of candidates) {
    if (candidate.value === null || !Number.isFinite(candidate.value)) {
      continue;
    }
    if (best === null || candidate.value > best.value) {
      best = { id: candidate.id, name: candidate.name, metric, value: candidate.value };
    }
  }
  return best;
}

/** The mark of entry `entry` against `baseline`, both indices into the view's paired ranks; `shownValue` is the entry's shown value of the view's metric. */
export function significanceMark(ranks: PairedRanks, entry: number, baseline: number, best: BestBaseline, shownValue: number | null): SignificanceMark {
  return { baselineId: best.id, baselineName: best.name, metric: best.metric, ...readPair(ranks.verdict(entry, baseline), shownValue, best.value) };
}

