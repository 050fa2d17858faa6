import { stringify } from "yaml";
import { PUBLIC_INTERVAL_EXPLANATION, PUBLIC_INTERVAL_SHORT } from "../format/explanations";
import { formatDate } from "@/lib/core/format/dates";
import { formatCount, formatDecimalInterval } from "@/lib/core/format/numbers";
import { metricKeysOf, PRIMARY_METRIC, type MetricKey } from "@/lib/core/scoring/tracks";
import type { EntryDetail } from "@/lib/core/leaderboard/entry-types";
import type { RenderedExport } from "./export-tables";
import { METRIC_LABELS, TRACK_LABELS } from "@/lib/core/leaderboard/views";

/**
 * An entry's results in the formats other hubs read (docs/leaderboard.md,
 * "Exports for other hubs"): a Hugging Face `model-index` block for a model
 * card, an `.eval_results/*.yaml` file (the Hub's newer evaluation results),
 * a Papers-with-Code-style evaluation table and an Every Eval Ever record
 * (schema 0.3.0, the one of them with fields for the interval). Every value
 * is the one the entry page shows: the disclosed report of lib/core/disclosure (a
 * test entry's ranking slice, rates rounded to 0.1 point as fractions, MRR to
 * 3 decimals; protocol section 12). Rates stay fractions in [0, 1], as in
 * every file of the platform. Pure.
 */

export const HUB_EXPORT_FORMATS = ["model-index", "eval-results", "pwc", "every-eval-ever"] as const;
type HubExportFormat = (typeof HUB_EXPORT_FORMATS)[number];

export function isHubExportFormat(format: string): format is HubExportFormat {
  return (HUB_EXPORT_FORMATS as readonly string[]).includes(format);
}

/** The Every Eval Ever schema version the record follows (testing/schemas/every-eval-ever-0.3.0.schema.json). */
const EVERY_EVAL_EVER_SCHEMA_VERSION = "0.3.0";

export type HubExportContext = {
  /** Absolute URL of the entry page, written as each result's source. */
  entryUrl: string;
  /** The site's origin (PUBLIC_URL): the Every Eval Ever record's organisation URL. */
  siteOrigin: string;
  /** HF_DATASET_ID; undefined when unset (hubDatasetIdOf then names the default). */
  hfDatasetId: string | undefined;
  /**
   * The section 9 bootstrap the platform scores with (BOOTSTRAP_RESAMPLES,
   * BOOTSTRAP_SEED): what a dev entry's intervals are made of. A test entry's
   * public intervals are not bootstrapped from outcomes at all (section 12).
   */
  bootstrap: { resamples: number; seed: number };
};

type ScoredEntry = EntryDetail & { score: NonNullable<EntryDetail["score"]> };

const TASK_TYPE = "implicit-entity-recognition";

function taskName(entry: EntryDetail): string {
  return `Implicit entity recognition (${TRACK_LABELS[entry.track].toLowerCase()})`;
}

function datasetName(entry: EntryDetail): string {
  return `${entry.release.name} ${entry.release.version} (${entry.split})`;
}

/** The namespace of the default Hub dataset id: the benchmark's own. */
const DEFAULT_HUB_NAMESPACE = "irc-bench";

/** A name the Hub accepts as one part of a repository id: letters, digits, "-", "_" and ".", no "--" or "..", at most 96 characters. */
function hubNamePart(text: string): string {
  const part = text
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/\.{2,}/g, ".")
    .slice(0, 96)
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, "");
  return part === "" ? "unnamed" : part;
}

/**
 * The Hub dataset (namespace/name) an export names: HF_DATASET_ID when set,
 * else the release name under the irc-bench namespace, as the release would be
 * published by the benchmark's maintainers (irc-bench/irc-bench-demo).
 */
export function hubDatasetIdOf(releaseName: string, configured: string | undefined): string {
  return configured ?? `${DEFAULT_HUB_NAMESPACE}/${hubNamePart(releaseName)}`;
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

/** How the interval in the `.eval_results` notes was made: from the shown value and n on the test split (section 12), the section 9 bootstrap on dev. */
function intervalNote(entry: ScoredEntry, ci95: [number, number] | null, context: HubExportContext): string {
  if (ci95 === null) return "no interval";
  const made = entry.split === "test" ? PUBLIC_INTERVAL_SHORT : `percentile bootstrap, ${formatCount(context.bootstrap.resamples)} resamples, seed ${context.bootstrap.seed}, protocol section 9`;
  return `95% CI ${formatDecimalInterval(ci95)} (${made})`;
}

/** Which samples an entry's public numbers are of (protocol section 12: a test entry's are its ranking slice's). */
function samplesOf(entry: ScoredEntry): string {
  const samples = `${formatCount(entry.score.n)} samples`;
  return entry.split === "test" ? `the ranking slice of the test split (${samples})` : `the ${entry.split} split (${samples})`;
}

function fileStem(entry: EntryDetail): string {
  const system = entry.system.toLowerCase().replace(/[^a-z0-9.]+/g, "-").replace(/^-+|-+$/g, "") || "entry";
  return `${entry.release.name}-${entry.release.version}-${system}`;
}

/** The `model-index` block of a Hugging Face model card, as its own YAML document (paste it into the card's front matter). */
function modelIndexDocument(entry: ScoredEntry, context: HubExportContext) {
  return {
    "model-index": [
      {
        name: entry.system,
        results: [
          {
            task: { type: TASK_TYPE, name: taskName(entry) },
            // The card spec's dataset type is a Hub dataset id.
            dataset: { name: datasetName(entry), type: hubDatasetIdOf(entry.release.name, context.hfDatasetId), split: entry.split, revision: entry.release.version },
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
 * for details of the evaluation). `dataset.id` is a Hub dataset id
 * (namespace/name); `date` is an ISO day, which the Hub types as a string.
 */
function evalResultsDocument(entry: ScoredEntry, context: HubExportContext) {
  const date = formatDate(entry.publishedAt ?? entry.score.computedAt);
  return metricsOf(entry).map((metric) => ({
    dataset: { id: hubDatasetIdOf(entry.release.name, context.hfDatasetId), task_id: `${entry.track}_${metricId(metric.key)}`, revision: entry.release.version },
    value: metric.value,
    date,
    source: { url: context.entryUrl, name: `IRC-Bench leaderboard: ${entry.system}` },
    notes: `${METRIC_LABELS[metric.key]} on ${samplesOf(entry)}, scorer ${entry.score.scorerVersion}; ${intervalNote(entry, metric.ci95, context)}`,
  }));
}

/** A Papers-with-Code evaluation table (their sota-extractor's shape): one task, one dataset, one row. */
function papersWithCodeDocument(entry: ScoredEntry, context: HubExportContext) {
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
              paper_date: formatDate(entry.publishedAt ?? entry.score.computedAt),
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

/** What each metric measures (protocol sections 6 and 7), for the Every Eval Ever record. */
const METRIC_DESCRIPTIONS: Record<MetricKey, string> = {
  exact: "Share of samples whose normalised prediction equals the gold entity's normalised name (open-world tier 1, protocol section 6).",
  alias: "Share of samples whose normalised prediction equals the gold entity's name or one of its aliases (tier 2 or better; the open-world track's primary metric).",
  contain: "Share of samples matched at tier 3 or better: the name or an alias, or the prediction and the gold name contain one another as a contiguous run of whole tokens.",
  jaccard: "Share of samples matched at tier 4 or better: as Contain, or the token sets of prediction and gold name share at least half of their union.",
  "hit@1": "Share of samples whose gold QID is ranked first (protocol section 7; the closed-world track's primary metric).",
  "hit@3": "Share of samples whose gold QID is among the top 3 of the ranking (protocol section 7).",
  "hit@5": "Share of samples whose gold QID is among the top 5 of the ranking (protocol section 7).",
  "hit@10": "Share of samples whose gold QID is among the top 10 of the ranking (protocol section 7).",
  mrr: "Mean of 1/rank of the gold QID in the ranking, 0 when it is absent (MRR@100, protocol section 7).",
  "alias_hit@1": "Share of samples whose top-ranked entity is the gold QID or bears the gold entity's name or one of its aliases (protocol section 7).",
};

/** k of a hit@k metric, for the record's metric parameters. */
const HIT_K: Partial<Record<MetricKey, number>> = { "hit@1": 1, "hit@3": 3, "hit@5": 5, "hit@10": 10, "alias_hit@1": 1 };

/** The interval method of a test entry's public numbers (protocol section 12; lib/core/disclosure/perturb.ts). */
const SLICE_INTERVAL_METHOD = `${PUBLIC_INTERVAL_EXPLANATION} n is the ranking slice's sample count.`;

/** MRR is a mean of values in [0, 1], not of 0/1 outcomes: a 0/1 vector has the largest variance such a mean can have. */
const SLICE_INTERVAL_MRR_NOTE = " MRR is not a mean of 0/1 outcomes; a 0/1 vector has the largest variance a mean of values in [0, 1] can have, so this is the widest such interval.";

function devIntervalMethod(bootstrap: HubExportContext["bootstrap"]): string {
  return (
    `Seeded percentile bootstrap over the n samples of the dev split (protocol v1.3 section 9): ${formatCount(bootstrap.resamples)} resamples ` +
    `drawn with replacement (seed ${bootstrap.seed}); the 2.5% and 97.5% percentiles of the metric over the resamples.`
  );
}

/** The score's uncertainty as the schema's `uncertainty` object: the 95% interval, how it is made, n, and the resamples where a finite bootstrap made it. */
function uncertaintyOf(entry: ScoredEntry, key: MetricKey, ci95: [number, number] | null, context: HubExportContext) {
  const isTest = entry.split === "test";
  const method = isTest ? SLICE_INTERVAL_METHOD + (key === "mrr" ? SLICE_INTERVAL_MRR_NOTE : "") : devIntervalMethod(context.bootstrap);
  return {
    ...(ci95 === null ? {} : { confidence_interval: { lower: ci95[0], upper: ci95[1], confidence_level: 0.95, method } }),
    num_samples: entry.score.n,
    // Infinitely many resamples (section 12) is no count: the field is left out.
    ...(isTest ? {} : { num_bootstrap_samples: context.bootstrap.resamples }),
  };
}

/** The schema's model availability, from the fact sheet's open-weights answer. */
function modelAvailabilityOf(entry: EntryDetail): "open_weights" | "closed_weights" | "unknown" {
  if (entry.isOpenWeights === null) return "unknown";
  return entry.isOpenWeights ? "open_weights" : "closed_weights";
}

/** Seconds since the Unix epoch, as the schema's retrieved_timestamp is written. */
function epochSeconds(iso: string): string {
  return String(Date.parse(iso) / 1000);
}

/** The record's creation time: when the numbers became the leaderboard's (the later of scoring and publication), so every download is the same file. */
function recordTimeOf(entry: ScoredEntry): string {
  const { computedAt } = entry.score;
  return entry.publishedAt !== null && entry.publishedAt > computedAt ? entry.publishedAt : computedAt;
}

/**
 * An Every Eval Ever record (evaleval/every_eval_ever, eval.schema.json,
 * schema version 0.3.0): one evaluation result per metric, each with its
 * value, `lower_is_better: false` and the 95% interval in `uncertainty`, with
 * how it was made, n and (for a finite bootstrap) the resamples. The scoring
 * was run by this platform on the participant's predictions
 * (`evaluation_run`); the maintainers built the baselines (`first_party`),
 * anyone else's system is `third_party` to them.
 */
export function everyEvalEverDocument(entry: ScoredEntry, context: HubExportContext) {
  const modelId = `${hubNamePart(entry.team)}/${hubNamePart(entry.system)}`;
  const retrieved = epochSeconds(recordTimeOf(entry));
  const datasetId = hubDatasetIdOf(entry.release.name, context.hfDatasetId);
  const modelDetails: Record<string, string> = {
    deployment_type: "unknown",
    model_availability: modelAvailabilityOf(entry),
    ...(entry.factSheet?.baseModel ? { base_model: entry.factSheet.baseModel } : {}),
    ...(entry.parameterCount === null ? {} : { parameters: String(entry.parameterCount) }),
    ...(entry.affiliation === "" ? {} : { affiliation: entry.affiliation }),
  };
  return {
    schema_version: EVERY_EVAL_EVER_SCHEMA_VERSION,
    evaluation_id: `${entry.release.name}/${modelId}/${retrieved}`,
    evaluation_timestamp: entry.score.computedAt,
    retrieved_timestamp: retrieved,
    source_metadata: {
      source_name: "IRC-Bench leaderboard",
      source_type: "evaluation_run",
      source_organization_name: "IRC-Bench",
      source_organization_url: context.siteOrigin,
      evaluator_relationship: entry.isBaseline ? "first_party" : "third_party",
      additional_details: { entry_url: context.entryUrl, release: `${entry.release.name} ${entry.release.version}`, provenance_tier: entry.provenance.tier },
    },
    eval_library: { name: "irc-bench-scorer", version: entry.score.scorerVersion, additional_details: { gold_version: entry.score.goldVersion } },
    model_info: { name: entry.system, id: modelId, developer: entry.team, additional_details: modelDetails },
    evaluation_results: metricsOf(entry).map((metric) => {
      const k = HIT_K[metric.key];
      return {
        evaluation_result_id: `${entry.track}_${metricId(metric.key)}`,
        evaluation_name: `${datasetName(entry)}, ${TRACK_LABELS[entry.track]} track: ${METRIC_LABELS[metric.key]}`,
        source_data: {
          dataset_name: datasetName(entry),
          source_type: "hf_dataset",
          hf_repo: datasetId,
          // The schema names the splits train, val and test; the release's dev split is its validation split.
          hf_split: entry.split === "test" ? "test" : "val",
          samples_number: entry.score.n,
          additional_details: { revision: entry.release.version, split: entry.split, samples: samplesOf(entry) },
        },
        metric_config: {
          evaluation_description: METRIC_DESCRIPTIONS[metric.key],
          metric_id: `irc_bench.${entry.track}.${metricId(metric.key)}`,
          metric_name: METRIC_LABELS[metric.key],
          metric_kind: metric.key === "mrr" ? "mrr" : "accuracy",
          metric_unit: "proportion",
          ...(k === undefined ? {} : { metric_parameters: { k } }),
          lower_is_better: false,
          score_type: "continuous",
          min_score: 0,
          max_score: 1,
        },
        score_details: {
          score: metric.value,
          details: { samples: samplesOf(entry), is_primary: String(metric.key === PRIMARY_METRIC[entry.track]) },
          uncertainty: uncertaintyOf(entry, metric.key, metric.ci95, context),
        },
      };
    }),
  };
}

export function hasScore(entry: EntryDetail): entry is ScoredEntry {
  return entry.score !== null;
}

/**
 * YAML for readers of YAML 1.1 (PyYAML, which huggingface_hub parses cards
 * and `.eval_results` with): every string such a reader would take for
 * something else (a date such as 2026-11-30, yes/no/on/off, 1.0) is quoted.
 */
function hubYaml(document: unknown): string {
  return stringify(document, { version: "1.1" });
}

function jsonFile(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The file of one format, with its content type and download name. */
export function renderHubExport(entry: ScoredEntry, format: HubExportFormat, context: HubExportContext): RenderedExport {
  const stem = fileStem(entry);
  if (format === "model-index") {
    return { body: hubYaml(modelIndexDocument(entry, context)), contentType: "application/yaml; charset=utf-8", filename: `${stem}-model-index.yaml` };
  }
  if (format === "eval-results") {
    return { body: hubYaml(evalResultsDocument(entry, context)), contentType: "application/yaml; charset=utf-8", filename: `${stem}.yaml` };
  }
  if (format === "every-eval-ever") {
    return { body: jsonFile(everyEvalEverDocument(entry, context)), contentType: "application/json; charset=utf-8", filename: `${stem}-every-eval-ever.json` };
  }
  return { body: jsonFile(papersWithCodeDocument(entry, context)), contentType: "application/json; charset=utf-8", filename: `${stem}-pwc.json` };
}
