import { formatCount } from "./numbers";
import { roundTo } from "./round";

/**
 * The public group rule of a release (protocol section 12, publicGroupPolicy in
 * lib/core/disclosure/disclose.ts) in words: one sentence for every page that states it.
 */
export function describeGroupRule(policy: { minGroupN: number; coarseBelowN: number }): string {
  return (
    `Public per-type and per-collection rates are rounded to 1 point in groups of fewer than ${formatCount(policy.coarseBelowN)} ranking samples (0.1 point from there); ` +
    `a group with fewer than ${formatCount(policy.minGroupN)} samples shows its size only, and no group shows an MRR.`
  );
}

/** A release's feedback_fraction as a share of its test split: 0.25 -> "25%". */
export function formatFeedbackShare(fraction: number): string {
  return `${roundTo(fraction * 100, 1)}%`;
}

/**
 * Protocol §12: the words that label the numbers the owner of an unpublished
 * test file sees, on the submission page and in the command-line client
 * alike: they are the feedback slice's, an estimate the leaderboard does not
 * use, with its n.
 */
export function feedbackEstimateLabel(n: number): string {
  return `Feedback estimate on the feedback slice, n = ${formatCount(n)}: not the numbers the leaderboard uses`;
}
