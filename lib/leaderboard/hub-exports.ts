import { stringify } from "yaml";
import { metricKeysOf, PRIMARY_METRIC, type MetricKey } from "@/lib/scoring/tracks";
import type { EntryDetail } from "./entry-types";
import type { RenderedExport } from "./export-tables";
import { METRIC_LABELS, TRACK_LABELS } from "./views";

/**
 * An entry's results in the formats other hubs read (docs/leaderboard.md,
 * "Exports for other hubs"): a Hugging Face `model-index` block for a model
 * card, an `.eval_results/*.yaml` file (the Hub's newer evaluation results),
 * and a Papers-with-Code-style evaluation table. Every value is the one the
 * entry page shows: the disclosed report of lib/disclosure (rates rounded to
 * 0.1 point as fractions, MRR to 3 decimals; protocol section 12). Rates stay
 * fractions in [0, 1], as in every file of the platform. Pure.
 */

export const HUB_EXPORT_FORMATS = ["model-index", "eval-results", "pwc"] as const;
export type HubExportFormat = (typeof HUB_EXPORT_FORMATS)[number];

export type HubExportContext = {
  /** Absolute URL of the entry page, written as each result's source. */
  entryUrl: string;
};

type ScoredEntry = EntryDetail & { score: NonNullable<EntryDetail["score"]> };

const TASK_TYPE = "implicit-entity-recognition";

function taskName(entry: EntryDetail): string {
  return `Implicit entity recognition (${TRACK_LABELS[entry.track].toLowerCase()})`;
}

function datasetName(entry: EntryDetail): string {
  return `${entry.release.name} ${entry.release.version} (${entry.split})`;
}

/** The metrics the entry has, in report order (section 11). */
function metricsOf(entry: ScoredEntry): { key: MetricKey; value: number; ci95: [number, number] | null }[] {
  return metricKeysOf(entry.track).flatMap((key) => {
    const value = entry.score.metrics[key];
    if (value === undefined) return [];
    return [{ key, value, ci95: entry.score.ci95[key] ?? null }];
  });
}

/** "hit@1" -> "hit_at_1": identifiers other hubs accept. */
function metricId(key: MetricKey): string {
  return key.replace("@", "_at_");
}

function intervalNote(ci95: [number, number] | null): string {
  return ci95 === null ? "no interval" : `95% CI [${ci95[0]}, ${ci95[1]}] (from the shown value and n, protocol section 12)`;
}

/** Which samples an entry's public numbers are of (protocol section 12: a test entry's are its ranking slice's). */
function samplesOf(entry: ScoredEntry): string {
  return entry.split === "test" ? `the ranking slice of the test split (${entry.score.n} samples)` : `the ${entry.split} split (${entry.score.n} samples)`;
}

function fileStem(entry: EntryDetail): string {
  const system = entry.system.toLowerCase().replace(/[^a-z0-9.]+/g, "-").replace(/^-+|-+$/g, "") || "entry";
  return `${entry.release.name}-${entry.release.version}-${system}`;
}

/** The `model-index` block of a Hugging Face model card, as its own YAML document (paste it into the card's front matter). */
export function modelIndexDocument(entry: ScoredEntry, context: HubExportContext) {
  return {
    "model-index": [
      {
        name: entry.system,
        results: [
          {
            task: { type: TASK_TYPE, name: taskName(entry) },
            dataset: { name: datasetName(entry), type: entry.release.name, split: entry.split, revision: entry.release.version },
            metrics: metricsOf(entry).map((metric) => ({ type: metricId(metric.key), value: metric.value, name: `${METRIC_LABELS[metric.key]} (${entry.split})` })),
            source: { name: "IRC-Bench leaderboard", url: context.entryUrl },
          },
        ],
      },
    ],
  };
}

/**
 * One `.eval_results` item per metric: the Hub's format has one value per
 * item and no error field, so the 95% interval goes into `notes` (the field
 * for details of the evaluation).
 */
export function evalResultsDocument(entry: ScoredEntry, context: HubExportContext) {
  const date = (entry.publishedAt ?? entry.score.computedAt).slice(0, 10);
  return metricsOf(entry).map((metric) => ({
    dataset: { id: entry.release.name, task_id: `${entry.track}_${metricId(metric.key)}`, revision: entry.release.version },
    value: metric.value,
    date,
    source: { url: context.entryUrl, name: `IRC-Bench leaderboard: ${entry.system}` },
    notes: `${METRIC_LABELS[metric.key]} on ${samplesOf(entry)}, scorer ${entry.score.scorerVersion}; ${intervalNote(metric.ci95)}`,
  }));
}

/** A Papers-with-Code evaluation table (their sota-extractor's shape): one task, one dataset, one row. */
export function papersWithCodeDocument(entry: ScoredEntry, context: HubExportContext) {
  const metrics = metricsOf(entry);
  return {
    task: taskName(entry),
    datasets: [
      {
        dataset: datasetName(entry),
        dataset_links: [{ title: "IRC-Bench leaderboard entry", url: context.entryUrl }],
        description: `Primary metric: ${METRIC_LABELS[PRIMARY_METRIC[entry.track]]}. Rates are fractions in [0, 1], rounded as the leaderboard shows them.`,
        sota: {
          metrics: metrics.map((metric) => METRIC_LABELS[metric.key]),
          rows: [
            {
              model_name: entry.system,
              paper_title: "",
              paper_url: entry.paperUrl ?? "",
              paper_date: (entry.publishedAt ?? entry.score.computedAt).slice(0, 10),
              code_links: entry.codeUrl === null ? [] : [{ title: "Code", url: entry.codeUrl }],
              // The fact sheet's data beyond the release: the source collections or Wikidata/Wikipedia beyond the KB.
              uses_additional_data: entry.factSheet?.dataUsed.sourceCollections === true || entry.factSheet?.dataUsed.wikiBeyondKb === true,
              metrics: Object.fromEntries(metrics.map((metric) => [METRIC_LABELS[metric.key], metric.value])),
              ci95: Object.fromEntries(metrics.map((metric) => [METRIC_LABELS[metric.key], metric.ci95])),
              source: context.entryUrl,
            },
          ],
        },
      },
    ],
  };
}

export function hasScore(entry: EntryDetail): entry is ScoredEntry {
  return entry.score !== null;
}

/** The file of one format, with its content type and download name. */
export function renderHubExport(entry: ScoredEntry, format: HubExportFormat, context: HubExportContext): RenderedExport {
  const stem = fileStem(entry);
  if (format === "model-index") {
    return { body: stringify(modelIndexDocument(entry, context)), contentType: "application/yaml; charset=utf-8", filename: `${stem}-model-index.yaml` };
  }
  if (format === "eval-results") {
    return { body: stringify(evalResultsDocument(entry, context)), contentType: "application/yaml; charset=utf-8", filename: `${stem}.yaml` };
  }
  return { body: `${JSON.stringify(papersWithCodeDocument(entry, context), null, 2)}\n`, contentType: "application/json; charset=utf-8", filename: `${stem}-pwc.json` };
}
