import type { BestBaseline, ComparisonSource, SignificanceMark } from "./leaderboard-types";

/**
 * Significance against the best baseline: the stored comparison of an entry
 * with the baseline that scores highest on the view's ranking metric,
 * significant when its Holm-adjusted McNemar p-value (adjusted across all the
 * baselines the entry is compared with, protocol section 9) is below 0.05.
 */

export const SIGNIFICANCE_LEVEL = 0.05;

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

export function significanceMark(comparison: ComparisonSource, baseline: BestBaseline): SignificanceMark {
  const direction = comparison.b > comparison.c ? "better" : comparison.b < comparison.c ? "worse" : "even";
  return {
    baselineId: baseline.id,
    baselineName: baseline.name,
    metric: comparison.metric,
    b: comparison.b,
    c: comparison.c,
    pHolm: comparison.pHolm,
    direction,
    isSignificant: direction !== "even" && comparison.pHolm < SIGNIFICANCE_LEVEL,
  };
}

/** A one-line reading of a mark, for titles and screen readers. */
export function describeSignificance(mark: SignificanceMark): string {
  const verdict = mark.isSignificant
    ? `significantly ${mark.direction === "better" ? "better" : "worse"} than`
    : "not significantly different from";
  return `${verdict} the best baseline ${mark.baselineName} (McNemar on ${mark.metric}, b = ${mark.b}, c = ${mark.c}, Holm-adjusted p = ${mark.pHolm.toPrecision(3)})`;
}
