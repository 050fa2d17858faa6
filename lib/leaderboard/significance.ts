import type { PairedRanks } from "@/lib/scoring/paired-ranks";
import { formatPValue } from "@/lib/format/numbers";
import type { BestBaseline, SignificanceMark } from "./leaderboard-types";

/**
 * Significance against the best baseline: the section 13 test of the pair
 * (the same test the ranks count), not a separate comparison, so a mark and
 * the ranks never say two things.
 */

export type BaselineCandidate = { id: string; name: string; value: number | null };

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

/** The mark of entry `entry` against `baseline`, both indices into the view's paired ranks. */
export function significanceMark(ranks: PairedRanks, entry: number, baseline: number, best: BestBaseline, metric: string): SignificanceMark {
  const { b, c } = ranks.pair(entry, baseline);
  const isAhead = ranks.right[entry]! > ranks.right[baseline]!;
  const family = isAhead ? "baseline" : "entry";
  const pHolm = isAhead ? ranks.adjustedInFamilyOf(baseline, entry) : ranks.adjustedInFamilyOf(entry, baseline);
  const isSignificant = isAhead ? ranks.isBetter(entry, baseline) : ranks.isBetter(baseline, entry);
  const direction = b > c ? "better" : b < c ? "worse" : "even";
  return { baselineId: best.id, baselineName: best.name, metric, b, c, pHolm, family, direction, isSignificant };
}

/** A one-line reading of a mark, for titles and screen readers. */
export function describeSignificance(mark: SignificanceMark): string {
  const verdict = mark.isSignificant
    ? `significantly ${mark.direction === "better" ? "better" : "worse"} than`
    : "not significantly different from";
  const family = mark.family === "baseline" ? "in the baseline's comparisons with every entry" : "in this entry's comparisons with every entry";
  return `${verdict} the best baseline ${mark.baselineName} (McNemar on ${mark.metric}, b = ${mark.b}, c = ${mark.c}, p = ${formatPValue(mark.pHolm)} Holm-adjusted ${family})`;
}


/** A rank's reason in one line: "2: Ada is significantly better (p = 0.003)". */
export function describeRank(rank: number, reason: { better: { system: string; pHolm: number }[] }): string {
  if (reason.better.length === 0) return `${rank}: no entry is significantly better`;
  const named = reason.better.slice(0, 3).map((entry) => `${entry.system} (p = ${formatPValue(entry.pHolm)})`);
  const more = reason.better.length > 3 ? ` and ${reason.better.length - 3} more` : "";
  return `${rank}: ${named.join(", ")}${more} ${reason.better.length === 1 ? "is" : "are"} significantly better`;
}
