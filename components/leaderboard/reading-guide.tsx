import { RANK_RULE } from "@/lib/leaderboard/rank-entries";

/** How to read a leaderboard table: the rank rule, the intervals and the marks. */
export function ReadingGuide({ withSignificance }: { withSignificance: boolean }) {
  return (
    <details className="rounded border border-line bg-white p-3 text-sm">
      <summary className="cursor-pointer font-medium">How to read this table</summary>
      <ul className="mt-2 list-disc space-y-1 pl-6">
        <li>
          Every score is a percentage with its 95% confidence interval in brackets, e.g. <code>38.9 [37.5, 40.3]</code>:
          a percentile bootstrap over test samples (1,000 resamples, seed 42). MRR is shown as a decimal.
        </li>
        <li>
          <strong>Rank.</strong> {RANK_RULE} Rows are ordered by the point estimate of the ranking metric; sort any
          column with its header button.
        </li>
        {withSignificance && (
          <li>
            <strong>vs best baseline.</strong> ▲ significantly better, ▼ significantly worse than the best baseline of
            this view (McNemar&apos;s test with continuity correction on the view&apos;s primary metric, Holm-adjusted
            across the entry&apos;s baselines, p &lt; 0.05); · not significant.
          </li>
        )}
        <li>
          <strong>baseline</strong> rows are systems run by the maintainers; <strong>reported</strong> rows are numbers
          published in papers for this release, without intervals or significance tests; <strong>stale</strong> scores
          were computed by an older scorer or against an older gold and await re-scoring.
        </li>
      </ul>
    </details>
  );
}
