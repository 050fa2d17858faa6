import {
  PERTURBATION_EXPLANATION,
  PUBLIC_INTERVAL_EXPLANATION,
  RANK_EXPLANATION,
  REPORTED_EXPLANATION,
  roundingExplanation,
  sliceNExplanation,
} from "@/lib/core/format/explanations";

/** How to read a leaderboard table: the interval, the rank, n, rounding, the perturbation and the marks, each in the words of lib/core/format/explanations.ts. */
export function ReadingGuide({
  withSignificance,
  rankingN,
  groupPolicy,
}: {
  withSignificance: boolean;
  rankingN: number | null;
  groupPolicy: { minGroupN: number; coarseBelowN: number } | null;
}) {
  return (
    <details className="rounded border border-line bg-white p-3 text-sm" data-testid="reading-guide">
      <summary className="cursor-pointer font-medium">How to read this table</summary>
      <ul className="mt-2 list-disc space-y-1 pl-6">
        <li data-testid="explain-interval">
          <strong>Intervals.</strong> Every score is a percentage with its 95% confidence interval in brackets, e.g. <code>38.9 [37.5, 40.3]</code>; MRR is
          shown as a decimal. <span data-testid="interval-explanation">{PUBLIC_INTERVAL_EXPLANATION}</span>
        </li>
        <li data-testid="explain-rank">
          <strong>Rank.</strong> {RANK_EXPLANATION} Open a rank to see which entries are significantly better. Rows are ordered by the point estimate of
          the ranking metric; sort any column with its header button.
        </li>
        <li data-testid="explain-n">
          <strong>n.</strong> {sliceNExplanation({ rankingN })}
        </li>
        <li data-testid="explain-rounding" id="explain-rounding">
          <strong>Rounding.</strong> {roundingExplanation(groupPolicy)}
        </li>
        <li data-testid="explain-perturbation">
          <strong>Noise.</strong> {PERTURBATION_EXPLANATION}
        </li>
        {withSignificance && (
          <li>
            <strong>vs best baseline.</strong> ▲ significantly better, ▼ significantly worse than the best baseline of this view; · not significant.
            It is the pair&apos;s one verdict (protocol §13), the same paired test the ranks count, with the same p bucket on the entry page, the
            matrix and the compare page.
          </li>
        )}
        <li>
          <strong>baseline</strong> rows are systems run by the maintainers; <strong>reported</strong>: {REPORTED_EXPLANATION}{" "}
          <strong>stale</strong> scores were computed by an older scorer or against an older gold and await re-scoring.
        </li>
      </ul>
    </details>
  );
}
