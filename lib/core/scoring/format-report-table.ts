import { ENTITY_TYPES } from "@/lib/core/dataset/release-constants";
import { formatDecimal, formatPercent } from "@/lib/core/format/numbers";
import { formatPValue } from "@/lib/core/format/p-values";
import type { Interval } from "./bootstrap";
import type { ScoreReport } from "./report-schema";
import { metricKeysOf, PRIMARY_METRIC, type MetricKey } from "./tracks";

/**
 * A score report as a plain-text table for a terminal (the CLI without
 * --json). Rates show as percentages with two decimals, mrr as a fraction;
 * the JSON keeps full precision.
 */

type FormatReportOptions = {
  seed: number;
  resamples: number;
  /** Label of the scored file, e.g. its path as given. */
  source?: string;
};

const NONE = "–";

// A terminal shows one more digit than the pages: rates to 0.01 point, MRR to 4 decimals.
function formatValue(key: MetricKey, value: number | null): string {
  if (value === null) {
    return NONE;
  }
  return key === "mrr" ? formatDecimal(value, 4) : `${formatPercent(value, 2)}%`;
}

function formatInterval(key: MetricKey, interval: Interval | null): string {
  if (interval === null) {
    return NONE;
  }
  return `[${formatValue(key, interval[0])}, ${formatValue(key, interval[1])}]`;
}

/** Left-aligns the first column and right-aligns the others. */
function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)));
  const render = (row: readonly string[]) =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  return [render(header), ...rows.map(render)];
}

export function formatReportTable(report: ScoreReport, options: FormatReportOptions): string {
  const keys = metricKeysOf(report.track);
  const primary = PRIMARY_METRIC[report.track];
  const metricsOf = (record: object, key: MetricKey): number | null =>
    (record as Partial<Record<MetricKey, number | null>>)[key] ?? null;
  const intervalOf = (record: object, key: MetricKey): Interval | null =>
    (record as Partial<Record<MetricKey, Interval | null>>)[key] ?? null;
  const lines: string[] = [];

  const trackName = report.track === "open" ? "open-world" : "closed-world";
  const source = options.source === undefined ? "" : `${options.source}: `;
  lines.push(`${source}IRC-Bench scorer ${report.scorer_version}, ${report.split} split, ${trackName} track, n = ${report.n}`);
  lines.push(
    `95% intervals: percentile bootstrap over samples, ${options.resamples} resamples, seed ${options.seed}; primary metric ${primary}`,
  );
  lines.push("");
  lines.push(
    ...renderTable(
      ["metric", "value", "95% CI"],
      keys.map((key) => [key, formatValue(key, metricsOf(report.metrics, key)), formatInterval(key, intervalOf(report.ci95, key))]),
    ),
  );

  lines.push("", `By entity type (95% CI of ${primary})`);
  lines.push(
    ...renderTable(
      ["type", "n", ...keys, `${primary} 95% CI`],
      ENTITY_TYPES.map((type) => {
        const group = report.by_type[type];
        return [
          type,
          String(group.n),
          ...keys.map((key) => formatValue(key, metricsOf(group.metrics, key))),
          formatInterval(primary, intervalOf(group.ci95, primary)),
        ];
      }),
    ),
  );

  lines.push("", "By collection");
  lines.push(
    ...renderTable(
      ["collection", "n", ...keys],
      Object.entries(report.by_collection).map(([name, group]) => [
        name,
        String(group.n),
        ...keys.map((key) => formatValue(key, metricsOf(group.metrics, key))),
      ]),
    ),
  );

  if (report.comparisons.length > 0) {
    lines.push(
      "",
      "Comparisons (McNemar, continuity-corrected; b = this file right and the baseline wrong, c = the reverse; p_holm across the baselines)",
    );
    lines.push(
      ...renderTable(
        ["baseline", "metric", "b", "c", "chi2", "p", "p_exact", "p_holm"],
        report.comparisons.map((row) => [
          row.baseline,
          row.metric,
          String(row.b),
          String(row.c),
          formatDecimal(row.chi2, 2),
          formatPValue(row.p),
          formatPValue(row.p_exact),
          formatPValue(row.p_holm),
        ]),
      ),
    );
  }
  return `${lines.join("\n")}\n`;
}
