import { RANK_RULE } from "@/lib/core/ranking/rank-rule";

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
          <strong>Rank.</strong> {RANK_RULE} Open a rank to see which entries are significantly better. Rows are
          ordered by the point estimate of the ranking metric; sort any column with its header button.
        </li>
        {withSignificance && (
          <li>
            <strong>vs best baseline.</strong> ▲ significantly better, ▼ significantly worse than the best baseline of
            this view; · not significant. It is the same paired test the ranks count: the entry is better when it is
            significantly better in the baseline&apos;s comparisons with every entry of the view (so it counts in the
            baseline&apos;s rank), worse when the baseline is significantly better in the entry&apos;s. The p shown is
            that Holm-adjusted p. An entry&apos;s own page compares it with each baseline instead, Holm-adjusted across
            the baselines only, which answers another question and can give another p.
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
