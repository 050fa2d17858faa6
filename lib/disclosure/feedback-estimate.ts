import { formatCount } from "@/lib/format/numbers";

/**
 * Protocol §12: the words that label the numbers the owner of an unpublished
 * test file sees, on the submission page and in the command-line client
 * alike: they are the feedback slice's, an estimate the leaderboard does not
 * use, with its n.
 */
export function feedbackEstimateLabel(n: number): string {
  return `Feedback estimate on the feedback slice, n = ${formatCount(n)}: not the numbers the leaderboard uses`;
}
