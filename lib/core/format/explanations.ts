import { RANK_RULE } from "../ranking/rank-rule";
import { describeGroupRule } from "./disclosure-text";
import { formatCount } from "./numbers";

/**
 * The one source of every explanation a reader gets of a public number
 * (protocol v1.3 §12, §13): the interval, the rank, the slice's n, rounding
 * and the perturbation. The leaderboard's "How to read", the entry pages,
 * /dataset, the CSV/LaTeX export headers and the API documents all quote
 * these; write a change here, never beside a page.
 */

/** The interval of a public test number, in one sentence (protocol §12). */
export const PUBLIC_INTERVAL_EXPLANATION =
  "Each 95% interval is made from the shown value v and the slice's n alone: the 2.5% and 97.5% quantiles of Binomial(n, v) plus the public noise, divided by n, " +
  "widened where needed so that it always contains v (protocol §12). It says nothing the rounded value does not.";

/** The same rule as a phrase after "95% intervals" in captions, notes and headers. */
export const PUBLIC_INTERVAL_SHORT = "made from the shown value v and n (Binomial(n, v) quantiles plus the public noise, always containing v; protocol §12)";

/** The interval of the owner's feedback numbers (no noise: they are not public). */
export const FEEDBACK_INTERVAL_SHORT = "made from the shown value v and n alone (Binomial(n, v) quantiles, always containing v)";

/** The §9 interval: what dev entries, the offline scorer and the maintainer's unrounded view show. */
export function bootstrapIntervalShort(bootstrap?: { resamples: number; seed: number }): string {
  const parameters = bootstrap === undefined ? "" : ` (${formatCount(bootstrap.resamples)} resamples, seed ${bootstrap.seed})`;
  return `95% percentile-bootstrap interval${parameters} of the exact outcomes (protocol §9)`;
}

/** The maintainer's view labels its interval so nobody takes it for the public one. */
export const MAINTAINER_INTERVAL_LABEL = `${bootstrapIntervalShort()}: not the public interval, which is made from the shown value and n`;

/** The rank (protocol §13), as the page, the API (`rank_rule`) and the exports state it. */
export const RANK_EXPLANATION = RANK_RULE;

/** Rounding of public numbers (protocol §12), with the release's group rule when the page knows it. */
export function roundingExplanation(groupPolicy?: { minGroupN: number; coarseBelowN: number } | null): string {
  const groups =
    groupPolicy === undefined || groupPolicy === null
      ? "Per-type and per-collection rates of small groups are rounded to whole points, and a group too small to show has its size only."
      : describeGroupRule(groupPolicy);
  return (
    `Overall rates are rounded to 0.1 point and MRR to 3 decimals, so that one sample cannot move a shown number. ${groups} ` +
    `A rate rounded to whole points is shown as whole points: 5 of 7 right reads ${WHOLE_POINT_EXAMPLE}, not 71.4 or 71.0.`
  );
}

const WHOLE_POINT_EXAMPLE = "71";

/** Why a per-group MRR shows "–" (protocol §12: no per-group MRR). */
export const NO_GROUP_MRR_EXPLANATION = "No per-type or per-collection MRR is published (protocol §12): it would show a group's exact sum of reciprocal ranks.";

/** The perturbation of public counts (protocol v1.3 §12). */
export const PERTURBATION_EXPLANATION =
  "Public numbers are computed from counts perturbed by seeded noise (standard deviation 4.5 samples: a part fixed per entry and number, " +
  "a part redrawn when the gold changes) before they are rounded, and every public order, best and verdict uses the perturbed counts. " +
  "The same entry always shows the same numbers; per-type rates need not average to the overall rate, and two baselines with identical answers " +
  "may show rates a point apart. Maintainers see the exact counts; stored reports and the offline scorer stay exact.";

/** What n of a public number is (protocol §12): the ranking slice's size, with the whole test split's when known. */
export function sliceNExplanation(sizes: { rankingN?: number | null; testSamples?: number | null } = {}): string {
  const { rankingN, testSamples } = sizes;
  const here =
    rankingN === undefined || rankingN === null
      ? ""
      : testSamples === undefined || testSamples === null
        ? ` (here n = ${formatCount(rankingN)})`
        : ` (here n = ${formatCount(rankingN)} of the ${formatCount(testSamples)} test samples; the other ${formatCount(testSamples - rankingN)} are the feedback slice)`;
  return (
    `n is the size of the ranking slice${here}: the secret part of the test split that every public number is computed on and that no participant can query before publication. ` +
    "The rest is the feedback slice, which only the owner of an unpublished file sees estimates from."
  );
}

/** Reported results beside ranking-slice numbers (protocol §12). */
export const REPORTED_EXPLANATION =
  "Reported rows are numbers published in a paper, typed in by a maintainer: they are on the whole test split, not the ranking slice, and have no interval, rank or significance test.";
