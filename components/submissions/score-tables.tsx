import type { ComparisonView } from "@/lib/submissions/get-submission-view";
import type { ScoreReport } from "@/lib/scoring/report-schema";
import { formatInterval, formatMetricName, formatPercent, formatPValue } from "@/components/submissions/format";

type Intervals = Record<string, [number, number] | null>;
type Metrics = Record<string, number | null>;

function metricCell(key: string, metrics: Metrics, ci?: Intervals) {
  const value = metrics[key];
  if (key === "mrr") return value === null || value === undefined ? "–" : `${value.toFixed(4)} ${ci?.[key] ? `[${ci[key]![0].toFixed(4)}, ${ci[key]![1].toFixed(4)}]` : ""}`;
  return `${formatPercent(value)} ${formatInterval(ci?.[key])}`;
}

/** Overall metrics, per entity type and per collection, each with its 95% CI. */
export function ScoreTables({ report }: { report: ScoreReport }) {
  const metrics = report.metrics as Metrics;
  const ci = report.ci95 as Intervals;
  const keys = Object.keys(metrics);
  return (
    <div className="space-y-6">
      <div className="overflow-x-auto">
        <table className="min-w-full bg-white text-sm" aria-label="Overall scores">
          <caption className="mb-1 text-left text-muted">
            Overall, n = {report.n} (percent, 95% bootstrap interval)
          </caption>
          <thead className="border-b border-line">
            <tr>
              {keys.map((key) => (
                <th key={key} scope="col">
                  {formatMetricName(key)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              {keys.map((key) => (
                <td key={key} data-metric={key}>
                  {metricCell(key, metrics, ci)}
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
      <GroupTable
        caption="Per entity type"
        label="Type"
        keys={keys}
        groups={Object.entries(report.by_type).map(([name, group]) => ({ name, n: group.n, metrics: group.metrics as Metrics, ci95: group.ci95 as Intervals }))}
      />
      <GroupTable
        caption="Per collection"
        label="Collection"
        keys={keys}
        groups={Object.entries(report.by_collection).map(([name, group]) => ({ name, n: group.n, metrics: group.metrics as Metrics }))}
      />
    </div>
  );
}

type Group = { name: string; n: number; metrics: Metrics; ci95?: Intervals };

/** One row per group (entity type or collection): n and every metric, with its interval where the report has one. */
function GroupTable({ caption, label, keys, groups }: { caption: string; label: string; keys: string[]; groups: Group[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full bg-white text-sm">
        <caption className="mb-1 text-left text-muted">{caption}</caption>
        <thead className="border-b border-line">
          <tr>
            <th scope="col">{label}</th>
            <th scope="col" className="text-right">n</th>
            {keys.map((key) => (
              <th key={key} scope="col">
                {formatMetricName(key)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {groups.map((group) => (
            <tr key={group.name} className="border-b border-line">
              <th scope="row">{group.name}</th>
              <td className="text-right">{group.n}</td>
              {keys.map((key) => (
                <td key={key}>{group.n === 0 ? "n = 0" : metricCell(key, group.metrics, group.ci95)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** McNemar comparisons with every baseline (protocol section 9). */
export function ComparisonTable({ comparisons }: { comparisons: ComparisonView[] }) {
  if (comparisons.length === 0) return <p className="text-sm text-muted">No baselines on this split yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full bg-white text-sm">
        <caption className="mb-1 text-left text-muted">
          Against each baseline: b = this entry right and the baseline wrong, c = the reverse; McNemar with continuity
          correction, exact binomial p, Holm-adjusted across the baselines.
        </caption>
        <thead className="border-b border-line">
          <tr>
            <th scope="col">Baseline</th>
            <th scope="col">Metric</th>
            <th scope="col" className="text-right">b</th>
            <th scope="col" className="text-right">c</th>
            <th scope="col" className="text-right">χ²</th>
            <th scope="col" className="text-right">p</th>
            <th scope="col" className="text-right">exact p</th>
            <th scope="col" className="text-right">Holm p</th>
          </tr>
        </thead>
        <tbody>
          {comparisons.map((row) => (
            <tr key={row.baselineId} className="border-b border-line">
              <th scope="row">{row.baselineLabel}</th>
              <td>{formatMetricName(row.metric)}</td>
              <td className="text-right">{row.b}</td>
              <td className="text-right">{row.c}</td>
              <td className="text-right">{row.chi2.toFixed(2)}</td>
              <td className="text-right">{formatPValue(row.p)}</td>
              <td className="text-right">{formatPValue(row.pExact)}</td>
              <td className="text-right">
                {formatPValue(row.pHolm)} {row.pHolm < 0.05 ? (row.b > row.c ? "▲" : "▼") : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
