import type { ComparisonView } from "@/lib/domain/submissions/get-submission-view";
import type { DisclosedGroup, DisclosedReport } from "@/lib/core/disclosure/disclose";
import { UNRELIABLE_INTERVAL_N } from "@/lib/core/scoring/bootstrap";
import { formatMetricName } from "@/lib/core/format/metric-labels";
import { formatCount, formatDecimal, formatDecimalInterval, formatPercent, formatPercentInterval } from "@/lib/core/format/numbers";
import { formatPBucket, formatPValue } from "@/lib/core/format/p-values";
import { TableShell } from "@/components/ui/table-shell";
import { SIGNIFICANCE_LEVEL } from "@/lib/core/disclosure/disclose";
import { describeGroupRule, feedbackEstimateLabel, formatFeedbackShare } from "@/lib/core/format/disclosure-text";
import { bootstrapIntervalShort, FEEDBACK_INTERVAL_SHORT, MAINTAINER_INTERVAL_LABEL, PUBLIC_INTERVAL_SHORT } from "@/lib/core/format/explanations";

type Intervals = Partial<Record<string, [number, number] | null>>;
type Metrics = Partial<Record<string, number | null>>;

function metricCell(key: string, metrics: Metrics, ci: Intervals | undefined, mrrDigits: number) {
  const value = metrics[key];
  const interval = ci?.[key];
  if (key === "mrr") return value === null || value === undefined ? "–" : `${formatDecimal(value, mrrDigits)} ${formatDecimalInterval(interval, mrrDigits)}`;
  return `${formatPercent(value)} ${formatPercentInterval(interval)}`;
}

const toRows = (groups: Record<string, DisclosedGroup>) =>
  Object.entries(groups).map(([name, group]) => ({ name, n: group.n, isSuppressed: group.isSuppressed, metrics: group.metrics, ci95: group.ci95 }));

/** What the overall table is made of, in words (protocol section 12). */
function overallCaption(report: DisclosedReport): string {
  const n = formatCount(report.n);
  if (report.disclosure.slice === "feedback" && report.disclosure.level === "owner") {
    return `${feedbackEstimateLabel(report.n)} (percent; 95% interval ${FEEDBACK_INTERVAL_SHORT})`;
  }
  if (report.disclosure.slice === "ranking" && report.disclosure.level === "public") {
    return `Overall on the ranking slice, n = ${n}: what the leaderboard shows (percent; 95% interval ${PUBLIC_INTERVAL_SHORT})`;
  }
  const samples = report.disclosure.slice === "whole" ? (report.split === "test" ? "the whole test split" : `the ${report.split} split`) : `the ${report.disclosure.slice} slice`;
  return `Overall on ${samples}, n = ${n} (percent, ${report.disclosure.level === "full" && report.split === "test" ? MAINTAINER_INTERVAL_LABEL : bootstrapIntervalShort()})`;
}

/** What the note under the overall table says of where the numbers come from (protocol section 12). */
function disclosureNote(report: DisclosedReport, feedbackFraction: number): string {
  const { min_group_n: minGroupN, coarse_below_n: coarseBelowN } = report.disclosure;
  if (report.by_type === null || minGroupN === null || coarseBelowN === null) {
    return `Before publication they come from the feedback slice, a secret ${formatFeedbackShare(feedbackFraction)} of the test split that never decides the leaderboard, so what a file reveals here cannot move a rank. Per-type and per-collection numbers appear once the entry is published.`;
  }
  return `Public numbers come from the ranking slice, the secret part of the test split no participant can query before publication. ${describeGroupRule({ minGroupN, coarseBelowN })}`;
}

/** Overall metrics, per entity type and per collection, each with its 95% CI, as far as the viewer may see them (protocol section 12). `feedbackFraction`: the release's (dataset.json). */
export function ScoreTables({ report, feedbackFraction }: { report: DisclosedReport; feedbackFraction: number }) {
  const metrics: Metrics = report.metrics;
  const ci: Intervals = report.ci95;
  const keys = Object.keys(metrics);
  const isFull = report.disclosure.level === "full";
  const mrrDigits = isFull ? 4 : 3;
  return (
    <div className="space-y-6">
      <TableShell
        caption={overallCaption(report)}
        label="Overall scores"
        captionTestId="overall-caption"
        captionSlice={report.disclosure.slice}
        head={
          <>
            {keys.map((key) => (
              <th key={key} scope="col">
                {formatMetricName(key)}
              </th>
            ))}
          </>
        }
      >
        <tr>
          {keys.map((key) => (
            <td key={key} data-metric={key}>
              {metricCell(key, metrics, ci, mrrDigits)}
            </td>
          ))}
        </tr>
      </TableShell>
      {!isFull && (
        <p className="text-sm text-muted" data-testid="disclosure-note">
          Test-split rates are rounded to 0.1 point (MRR to 3 decimals).{" "}
          {disclosureNote(report, feedbackFraction)}{" "}
          (<a href="/dataset#integrity">protocol §12</a>)
        </p>
      )}
      {report.by_type && (
        <GroupTable caption="Per entity type" label="Type" keys={groupKeys(keys, isFull)} groups={toRows(report.by_type as Record<string, DisclosedGroup>)} mrrDigits={mrrDigits} />
      )}
      {report.by_collection && (
        <GroupTable caption="Per collection" label="Collection" keys={groupKeys(keys, isFull)} groups={toRows(report.by_collection)} mrrDigits={mrrDigits} />
      )}
    </div>
  );
}

/** No per-group MRR outside the server (section 12). */
const groupKeys = (keys: string[], isFull: boolean) => (isFull ? keys : keys.filter((key) => key !== "mrr"));

type Group = { name: string; n: number; isSuppressed: boolean; metrics: Metrics; ci95?: Intervals };

/** One row per group (entity type or collection): n and every metric, with its interval where the report has one. */
function GroupTable({ caption, label, keys, groups, mrrDigits }: { caption: string; label: string; keys: string[]; groups: Group[]; mrrDigits: number }) {
  return (
    <TableShell
      caption={caption}
      head={
        <>
          <th scope="col">{label}</th>
          <th scope="col" className="text-right">n</th>
          {keys.map((key) => (
            <th key={key} scope="col">
              {formatMetricName(key)}
            </th>
          ))}
        </>
      }
    >
      {groups.map((group) => (
        <tr key={group.name} className="border-b border-line">
          <th scope="row">
            {group.name}
            {group.n > 0 && group.n < UNRELIABLE_INTERVAL_N && !group.isSuppressed && (
              <span className="ml-1 text-xs font-normal text-amber-800" data-testid="unreliable-interval">
                (n &lt; {UNRELIABLE_INTERVAL_N}: interval unreliable)
              </span>
            )}
          </th>
          <td className="text-right">{group.n}</td>
          {group.n === 0 ? (
            keys.map((key) => <td key={key}>n = 0</td>)
          ) : group.isSuppressed ? (
            <td colSpan={keys.length} className="text-muted" data-testid="suppressed-group">
              too few samples to show
            </td>
          ) : (
            keys.map((key) => <td key={key}>{metricCell(key, group.metrics, group.ci95, mrrDigits)}</td>)
          )}
        </tr>
      ))}
    </TableShell>
  );
}

const FAMILY_CAPTION: Record<ComparisonView["family"], string> = {
  track: "Within this track: the track's primary metric, Holm-adjusted across this track's baselines.",
  unified: "Across both tracks: alias-aware top-1 accuracy, Holm-adjusted across every baseline.",
};

/** Comparisons with every baseline (protocol section 9), one table per Holm family: in full, or as verdicts for an unpublished test submission (section 12). */
export function ComparisonTable({ comparisons }: { comparisons: ComparisonView[] }) {
  if (comparisons.length === 0) return <p className="text-sm text-muted">No baselines on this split yet.</p>;
  return (
    <>
      {(["track", "unified"] as const).map((family) => {
        const rows = comparisons.filter((row) => row.family === family);
        if (rows.length === 0) return null;
        const details = rows.flatMap((row) => (row.kind === "detail" ? [row] : []));
        const verdicts = rows.flatMap((row) => (row.kind === "verdict" ? [row] : []));
        const identical = rows.filter((row) => row.identicalTo !== null);
        return (
          <div key={family} className="space-y-1" data-family={family}>
            <p className="text-sm font-medium">{FAMILY_CAPTION[family]}</p>
            {verdicts.length > 0 && <VerdictTable verdicts={verdicts} />}
            {details.length > 0 && <DetailTable details={details} />}
            {identical.length > 0 && (
              <p className="text-xs text-muted" data-testid="identical-baselines">
                {identical.map((row) => `${row.baselineLabel} has the same per-sample outcomes as ${row.identicalTo}`).join("; ")}: counted once in the
                Holm adjustment.
              </p>
            )}
          </div>
        );
      })}
    </>
  );
}

type VerdictRow = Extract<ComparisonView, { kind: "verdict" }>;
type DetailRow = Extract<ComparisonView, { kind: "detail" }>;

const VERDICT_TEXT: Record<VerdictRow["verdict"], string> = {
  better: "better than the baseline",
  worse: "worse than the baseline",
  "no significant difference": "no significant difference",
};

function VerdictTable({ verdicts }: { verdicts: VerdictRow[] }) {
  return (
    <TableShell
      caption={
        <>
          Feedback estimate against each baseline, on the feedback slice: McNemar&apos;s test with continuity correction (protocol section 9), Holm-adjusted across the baselines, at the 5%
          level, as a verdict and a bucket of the adjusted p. The leaderboard&apos;s verdicts come from the ranking slice once the entry is published.
        </>
      }
      label="Verdicts against the baselines"
      head={
        <>
          <th scope="col">Baseline</th>
          <th scope="col">Metric</th>
          <th scope="col">Verdict</th>
          <th scope="col" className="text-right">Holm p</th>
        </>
      }
    >
      {verdicts.map((row) => (
        <tr key={row.baselineId} className="border-b border-line" data-testid="verdict-row">
          <th scope="row">{row.baselineLabel}</th>
          <td>{formatMetricName(row.metric)}</td>
          <td data-verdict={row.verdict}>{VERDICT_TEXT[row.verdict]}</td>
          <td className="text-right">{formatPBucket(row.pHolmBucket)}</td>
        </tr>
      ))}
    </TableShell>
  );
}

function DetailTable({ details }: { details: DetailRow[] }) {
  return (
    <TableShell
      caption={
        <>
          Against each baseline: b = this entry right and the baseline wrong, c = the reverse; McNemar with continuity
          correction, exact binomial p, Holm-adjusted across the baselines.
        </>
      }
      head={
        <>
          <th scope="col">Baseline</th>
          <th scope="col">Metric</th>
          <th scope="col" className="text-right">b</th>
          <th scope="col" className="text-right">c</th>
          <th scope="col" className="text-right">χ²</th>
          <th scope="col" className="text-right">p</th>
          <th scope="col" className="text-right">exact p</th>
          <th scope="col" className="text-right">Holm p</th>
        </>
      }
    >
      {details.map((row) => (
        <tr key={row.baselineId} className="border-b border-line">
          <th scope="row">{row.baselineLabel}</th>
          <td>{formatMetricName(row.metric)}</td>
          <td className="text-right">{row.b}</td>
          <td className="text-right">{row.c}</td>
          <td className="text-right">{formatDecimal(row.chi2, 2)}</td>
          <td className="text-right">{formatPValue(row.p)}</td>
          <td className="text-right">{formatPValue(row.pExact)}</td>
          <td className="text-right">
            {formatPValue(row.pHolm)} {row.pHolm < SIGNIFICANCE_LEVEL ? (row.b > row.c ? "▲" : "▼") : ""}
          </td>
        </tr>
      ))}
    </TableShell>
  );
}

/** A maintainer's view of a test score's two slices beside the whole split (protocol section 12), unrounded. */
export function SliceTables({ slices }: { slices: { feedback: DisclosedReport; ranking: DisclosedReport } }) {
  const keys = Object.keys(slices.ranking.metrics);
  return (
    <TableShell
      caption={
        <>
          Maintainers only: the feedback slice (what the owner saw before publication) and the ranking slice (what the leaderboard shows), unrounded
        </>
      }
      region="Slices"
      scrollTestId="slice-tables"
      head={
        <>
          <th scope="col">Slice</th>
          <th scope="col" className="text-right">n</th>
          {keys.map((key) => (
            <th key={key} scope="col">
              {formatMetricName(key)}
            </th>
          ))}
        </>
      }
    >
      {(["feedback", "ranking"] as const).map((name) => (
        <tr key={name} className="border-b border-line">
          <th scope="row">{name}</th>
          <td className="text-right tabular-nums">{formatCount(slices[name].n)}</td>
          {keys.map((key) => (
            <td key={key}>{metricCell(key, slices[name].metrics, slices[name].ci95, 4)}</td>
          ))}
        </tr>
      ))}
    </TableShell>
  );
}
