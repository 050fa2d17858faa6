import type { PairReading } from "@/lib/core/disclosure/disclose";
import { formatRankInterval } from "@/lib/core/format/numbers";
import { formatPBucket } from "@/lib/core/format/p-values";
import type { RankReason, SignificanceMark } from "./leaderboard-types";

/**
 * The words of a pair's verdict and of a rank interval's reason (protocol
 * section 13): one sentence per pair, printed the same by the leaderboard's
 * mark, the rank popover, the entry page, /compare, the matrix and the
 * timeline. Pure, for server and client components alike.
 */

/** The verdict of a pair in words, from the first entry's side: the one sentence every page prints for it. */
export function describeVerdict(reading: Pick<PairReading, "verdict" | "pBucket">, other: string): string {
  const verdict =
    reading.verdict === "no significant difference" ? `not significantly different from ${other}` : `significantly ${reading.verdict} than ${other}`;
  return `${verdict} (${formatPBucket(reading.pBucket)})`;
}

/** A one-line reading of a mark, for titles and screen readers. */
export function describeSignificance(mark: SignificanceMark): string {
  return `${describeVerdict(mark, `the best baseline ${mark.baselineName}`)}, McNemar's exact test on ${mark.metric}, Holm-adjusted in the view`;
}

/** A rank interval's reason in one line: "2–5: Ada is significantly better (p < 0.01); better than 3 of 9". */
export function describeRank(rank: number, rankHi: number, reason: RankReason): string {
  const interval = formatRankInterval(rank, rankHi);
  const above =
    reason.better.length === 0
      ? "no entry is significantly better"
      : `${reason.better.slice(0, 3).map((entry) => `${entry.system} (${formatPBucket(entry.pBucket)})`).join(", ")}${reason.better.length > 3 ? ` and ${reason.better.length - 3} more` : ""} ${reason.better.length === 1 ? "is" : "are"} significantly better`;
  const below = `significantly better than ${reason.beats} of the other ${reason.ranked - 1}`;
  return `${interval}: ${above}; ${below}`;
}
