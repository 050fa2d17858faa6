import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-schema";
import { metricKeysOf, type MetricKey } from "@/lib/core/scoring/tracks";
import { toCsv, type CsvCell, type CsvColumn } from "../format/csv";
import type { EntryDetail } from "@/lib/core/leaderboard/entry-types";
import { formatEstimate, formatRankInterval, formatValue } from "@/lib/core/format/numbers";
import { toLatexTabular, type LatexColumn, type LatexTable } from "../format/latex";
import type { Estimate, LeaderboardView } from "@/lib/core/leaderboard/leaderboard-types";
import { bootstrapIntervalShort, PERTURBATION_EXPLANATION, PUBLIC_INTERVAL_EXPLANATION, RANK_EXPLANATION, REPORTED_EXPLANATION } from "../format/explanations";
import { leaderboardViewHref } from "@/lib/core/leaderboard/view-links";
import { isRateMetric, METRIC_LABELS, TRACK_LABELS, TYPE_SLUGS, type ViewMetric } from "@/lib/core/leaderboard/views";
import { rowFacts } from "@/lib/core/leaderboard/api-shapes";
import { splitPartOf } from "@/lib/core/leaderboard/split-part";

/**
 * Every table of the leaderboard pages as a downloadable file: CSV and JSON
 * with fractions at full precision (one flat object per row, the same keys as
 * the CSV header), and a LaTeX tabular with the numbers as the pages show them.
 * A file is read away from the site, so its links are absolute: `siteOrigin`
 * is the public URL's origin (lib/platform/public-url.ts), never the request's Host.
 */

export const EXPORT_FORMATS = ["csv", "json", "tex"] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];

type ExportTable = {
  /** File name without extension. */
  name: string;
  title: string;
  /** Context written into the JSON file beside the rows. */
  meta: Record<string, string | number | null>;
  columns: CsvColumn[];
  rows: Record<string, CsvCell>[];
  latex: LatexTable;
};

export type RenderedExport = { body: string; contentType: string; filename: string };

function metricHeader(metric: ViewMetric): string {
  return isRateMetric(metric) ? `${METRIC_LABELS[metric]} (%)` : METRIC_LABELS[metric];
}

function estimateColumns(prefix: string, metric: string): CsvColumn[] {
  return [
    { key: `${prefix}${metric}`, label: `${prefix}${metric}` },
    { key: `${prefix}${metric}_ci_low`, label: `${prefix}${metric}_ci_low` },
    { key: `${prefix}${metric}_ci_high`, label: `${prefix}${metric}_ci_high` },
  ];
}

function putEstimate(row: Record<string, CsvCell>, prefix: string, metric: string, estimate: Estimate | null | undefined) {
  row[`${prefix}${metric}`] = estimate?.value ?? null;
  row[`${prefix}${metric}_ci_low`] = estimate?.ci95?.[0] ?? null;
  row[`${prefix}${metric}_ci_high`] = estimate?.ci95?.[1] ?? null;
}

/** How an export's intervals are made, for its LaTeX comment and JSON: the words of lib/core/format/explanations.ts (a test entry's from the shown value and n, section 12; a dev entry's the stored bootstrap, section 9). */
function intervalNote(split: "dev" | "test"): string {
  return split === "test" ? `on the ranking slice. ${PUBLIC_INTERVAL_EXPLANATION} ${PERTURBATION_EXPLANATION}` : `with the ${bootstrapIntervalShort()}.`;
}

function slugPart(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9.]+/g, "-").replace(/^-+|-+$/g, "");
}

function entryUrl(siteOrigin: string, entryId: string): string {
  return `${siteOrigin}/entries/${encodeURIComponent(entryId)}`;
}

/** The CSV columns of a leaderboard view: the entry's facts, every metric with its interval, per-type columns in the all-types view. */
function leaderboardCsvColumns(view: LeaderboardView, typeKeys: readonly EntityType[]): CsvColumn[] {
  return [
    { key: "rank", label: "rank" },
    { key: "rank_lo", label: "rank_lo" },
    { key: "rank_hi", label: "rank_hi" },
    { key: "kind", label: "kind" },
    { key: "system", label: "system" },
    { key: "team", label: "team" },
    { key: "track", label: "track" },
    { key: "split_part", label: "split_part" },
    { key: "n", label: "n" },
    ...view.columns.flatMap((metric) => estimateColumns("", metric)),
    ...typeKeys.flatMap((entityType) => [
      { key: `${TYPE_SLUGS[entityType]}_n`, label: `${TYPE_SLUGS[entityType]}_n` },
      ...estimateColumns(`${TYPE_SLUGS[entityType]}_`, view.rankMetric),
    ]),
    { key: "parameter_count", label: "parameter_count" },
    { key: "open_weights", label: "open_weights" },
    { key: "approach", label: "approach" },
    { key: "uses_source_data", label: "uses_source_data" },
    { key: "knowledge_cutoff", label: "knowledge_cutoff" },
    { key: "tier", label: "tier" },
    { key: "stale", label: "stale" },
    { key: "vs_best_baseline", label: "vs_best_baseline" },
    { key: "vs_best_baseline_p_holm", label: "vs_best_baseline_p_holm" },
    { key: "date", label: "date" },
    { key: "source", label: "source" },
    { key: "entry_id", label: "entry_id" },
    { key: "entry_url", label: "entry_url" },
  ];
}

/** One leaderboard row as CSV cells, keyed like leaderboardCsvColumns. */
function leaderboardCsvRow(view: LeaderboardView, row: LeaderboardView["rows"][number], typeKeys: readonly EntityType[], siteOrigin: string): Record<string, CsvCell> {
  const out: Record<string, CsvCell> = {
    rank: row.rank,
    kind: row.kind,
    ...rowFacts(row),
    split_part: splitPartOf(row.kind),
    stale: row.isStale,
    rank_lo: row.rank,
    rank_hi: row.rankHi,
    vs_best_baseline: row.significance?.verdict ?? null,
    vs_best_baseline_p_holm: row.significance?.pBucket ?? null,
    date: row.date,
    source: row.source,
    entry_id: row.entryId,
    entry_url: row.entryId === null ? null : entryUrl(siteOrigin, row.entryId),
  };
  for (const metric of view.columns) putEstimate(out, "", metric, row.metrics[metric]);
  for (const entityType of typeKeys) {
    const estimate = row.byType?.[entityType];
    out[`${TYPE_SLUGS[entityType]}_n`] = estimate?.n ?? null;
    putEstimate(out, `${TYPE_SLUGS[entityType]}_`, view.rankMetric, estimate && estimate.value !== null ? { value: estimate.value, ci95: estimate.ci95 } : null);
  }
  return out;
}

/** The LaTeX table of a view: rank, system, the track (unified view), n (type view) and each metric as shown. */
function leaderboardLatex(view: LeaderboardView): { columns: LatexColumn[]; rows: string[][] } {
  const { track, type } = view;
  const columns: LatexColumn[] = [
    { label: "Rank", align: "r" },
    { label: "System", align: "l" },
    ...(track === "unified" ? [{ label: "Track", align: "l" as const }] : []),
    ...(type === null ? [] : [{ label: "n", align: "r" as const }]),
    ...view.columns.map((metric) => ({ label: metricHeader(metric), align: "r" as const })),
  ];
  const rows = view.rows.map((row) => [
    row.rank === null ? "–" : formatRankInterval(row.rank, row.rankHi ?? row.rank),
    row.kind === "submission" ? row.system : `${row.system} (${row.kind})`,
    ...(track === "unified" ? [row.track] : []),
    ...(type === null ? [] : [row.n === null ? "–" : String(row.n)]),
    ...view.columns.map((metric) => formatEstimate(row.metrics[metric], metric)),
  ]);
  return { columns, rows };
}

export function leaderboardExport(view: LeaderboardView, siteOrigin: string): ExportTable {
  const { release, track, type } = view;
  const typeSlug = type === null ? "" : `-${TYPE_SLUGS[type]}`;
  const typeKeys = type === null ? ENTITY_TYPES : [];
  const latex = leaderboardLatex(view);
  const title = `IRC-Bench leaderboard, ${TRACK_LABELS[track]}${type === null ? "" : `, entity type ${type}`}, release ${release.name} ${release.version}, test split`;
  const url = `${siteOrigin}${leaderboardViewHref(track, type)}`;
  return {
    name: `${slugPart(release.name)}-${slugPart(release.version)}-test-${track}${typeSlug}-leaderboard`,
    title,
    meta: {
      release: `${release.name} ${release.version}`,
      url,
      split: "test",
      track,
      type,
      rank_metric: view.rankMetric,
      rank_rule: RANK_EXPLANATION,
      interval: PUBLIC_INTERVAL_EXPLANATION,
      perturbation: PERTURBATION_EXPLANATION,
      best_baseline: view.bestBaseline?.name ?? null,
    },
    columns: leaderboardCsvColumns(view, typeKeys),
    rows: view.rows.map((row) => leaderboardCsvRow(view, row, typeKeys, siteOrigin)),
    latex: {
      comment: `${title}; rates in percent ${intervalNote("test")} ${REPORTED_EXPLANATION} Rank: ${RANK_EXPLANATION} ${url}`,
      columns: latex.columns,
      rows: latex.rows,
    },
  };
}

function entryName(entry: EntryDetail, table: string): string {
  return `${slugPart(entry.release.name)}-${slugPart(entry.release.version)}-${entry.split}-entry-${entry.id}-${table}`;
}

export function entryTypeExport(entry: EntryDetail, siteOrigin: string): ExportTable {
  const keys: readonly MetricKey[] = metricKeysOf(entry.track);
  const columns: CsvColumn[] = [
    { key: "type", label: "type" },
    { key: "n", label: "n" },
    { key: "suppressed", label: "suppressed" },
    ...keys.flatMap((metric) => estimateColumns("", metric)),
  ];
  const rows = ENTITY_TYPES.map((type) => {
    const group = entry.score?.byType[type];
    const out: Record<string, CsvCell> = { type, n: group?.n ?? 0, suppressed: group?.isSuppressed ?? false };
    for (const metric of keys) {
      const value = group?.metrics[metric];
      putEstimate(out, "", metric, value === null || value === undefined ? null : { value, ci95: group?.ci95[metric] ?? null });
    }
    return out;
  });
  const title = `${entry.system}: scores per entity type (${entry.track}-world track, ${entry.split} split, release ${entry.release.name} ${entry.release.version})`;
  return {
    name: entryName(entry, "by-type"),
    title,
    meta: { entry_id: entry.id, entry_url: entryUrl(siteOrigin, entry.id), system: entry.system, track: entry.track, split: entry.split },
    columns,
    rows,
    latex: {
      comment: `${title}; rates in percent ${intervalNote(entry.split)} ${entryUrl(siteOrigin, entry.id)}`,
      columns: [
        { label: "Entity type", align: "l" },
        { label: "n", align: "r" },
        ...keys.map((metric) => ({ label: metricHeader(metric), align: "r" as const })),
      ],
      rows: rows.map((row, index) => {
        const type = ENTITY_TYPES[index] ?? "Other";
        const group = entry.score?.byType[type];
        return [
          type,
          String(row.n ?? 0),
          ...keys.map((metric) => {
            const value = group?.metrics[metric];
            return value === null || value === undefined ? "–" : formatEstimate({ value, ci95: group?.ci95[metric] ?? null }, metric);
          }),
        ];
      }),
    },
  };
}

export function entryCollectionExport(entry: EntryDetail, siteOrigin: string): ExportTable {
  const keys: readonly MetricKey[] = metricKeysOf(entry.track);
  const columns: CsvColumn[] = [
    { key: "collection", label: "collection" },
    { key: "n", label: "n" },
    { key: "suppressed", label: "suppressed" },
    ...keys.map((metric) => ({ key: metric, label: metric })),
  ];
  const collections = Object.entries(entry.score?.byCollection ?? {}).sort(([a], [b]) => a.localeCompare(b, "en"));
  const rows = collections.map(([collection, group]) => {
    const out: Record<string, CsvCell> = { collection, n: group.n, suppressed: group.isSuppressed };
    for (const metric of keys) out[metric] = group.metrics[metric] ?? null;
    return out;
  });
  const title = `${entry.system}: scores per collection (${entry.track}-world track, ${entry.split} split, release ${entry.release.name} ${entry.release.version})`;
  return {
    name: entryName(entry, "by-collection"),
    title,
    meta: { entry_id: entry.id, entry_url: entryUrl(siteOrigin, entry.id), system: entry.system, track: entry.track, split: entry.split },
    columns,
    rows,
    latex: {
      comment: `${title}; rates in percent${entry.split === "test" ? ", on the ranking slice" : ""}; ${entryUrl(siteOrigin, entry.id)}`,
      columns: [
        { label: "Collection", align: "l" },
        { label: "n", align: "r" },
        ...keys.map((metric) => ({ label: metricHeader(metric), align: "r" as const })),
      ],
      rows: collections.map(([collection, group]) => [
        collection,
        String(group.n),
        ...keys.map((metric) => {
          const value = group.metrics[metric];
          return value === undefined || value === null ? "–" : formatValue(value, metric);
        }),
      ]),
    },
  };
}

export function renderExport(table: ExportTable, format: ExportFormat): RenderedExport {
  if (format === "csv") {
    return { body: toCsv(table.columns, table.rows), contentType: "text/csv; charset=utf-8", filename: `${table.name}.csv` };
  }
  if (format === "tex") {
    return { body: toLatexTabular(table.latex), contentType: "application/x-tex; charset=utf-8", filename: `${table.name}.tex` };
  }
  const body = JSON.stringify({ title: table.title, ...table.meta, columns: table.columns.map((column) => column.key), rows: table.rows }, null, 2);
  return { body: `${body}\n`, contentType: "application/json; charset=utf-8", filename: `${table.name}.json` };
}
