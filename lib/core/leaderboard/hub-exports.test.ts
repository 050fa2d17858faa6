import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { envSchema } from "@/lib/platform/env";
import { everyEvalEverViolations } from "@/testing/schemas/every-eval-ever";
import type { EntryDetail } from "@/lib/core/leaderboard/entry-types";
import { everyEvalEverDocument, hasScore, hubDatasetIdOf, renderHubExport, type HubExportContext } from "./hub-exports";

const ENTRY: EntryDetail = {
  id: "entry1",
  track: "open",
  split: "test",
  isBaseline: false,
  system: "Ada RAG v2",
  team: "Ada",
  affiliation: "",
  description: null,
  paperUrl: "https://example.org/paper",
  codeUrl: null,
  parameterCount: null,
  isOpenWeights: true,
  factSheet: null,
  factSheetMissing: [],
  provenance: { tier: "scored", reproducedAt: null, reproducedBy: null },
  publishedAt: "2026-11-30T10:00:00.000Z",
  createdAt: "2026-11-29T10:00:00.000Z",
  release: { id: "r1", name: "irc-bench-demo", version: "1.0" },
  score: {
    n: 400,
    scorerVersion: "1.1.0",
    platformScoringVersion: "1.2.0",
    goldVersion: "g1",
    computedAt: "2026-11-29T11:00:00.000Z",
    isStale: false,
    minGroupN: 30,
    coarseBelowN: 1000,
    metrics: { exact: 0.301, alias: 0.412, contain: 0.43, jaccard: 0.455 },
    ci95: { exact: [0.28, 0.322], alias: [0.39, 0.434], contain: [0.41, 0.452], jaccard: [0.433, 0.477] },
    byType: {},
    byCollection: {},
  },
  comparisons: [],
};

/** A public dev-split baseline of the closed track: its intervals are the stored section 9 bootstrap ones, at full precision. */
const DEV_BASELINE: EntryDetail = {
  ...ENTRY,
  id: "devbase",
  track: "closed",
  split: "dev",
  isBaseline: true,
  system: "BM25 baseline",
  team: "IRC-Bench maintainers",
  isOpenWeights: null,
  publishedAt: null,
  score: {
    ...ENTRY.score!,
    n: 1250,
    computedAt: "2026-10-02T08:30:00.000Z",
    minGroupN: null,
    metrics: { "hit@1": 0.3016, "hit@3": 0.4512, "hit@5": 0.5, "hit@10": 0.6, mrr: 0.40125, "alias_hit@1": 0.32 },
    ci95: { "hit@1": [0.2768, 0.3264], "hit@3": [0.424, 0.4784], "hit@5": [0.4728, 0.5272], "hit@10": [0.5728, 0.6272], mrr: [0.3811, 0.4215], "alias_hit@1": [0.2944, 0.3456] },
  },
};

const CONTEXT: HubExportContext = {
  entryUrl: "https://bench.example/entries/entry1",
  siteOrigin: "https://bench.example",
  hfDatasetId: undefined,
  bootstrap: { resamples: 1000, seed: 42 },
};

function scored(entry: EntryDetail = ENTRY) {
  if (!hasScore(entry)) throw new Error("fixture has a score");
  return entry;
}

type EvalResultsItem = { dataset: { id: string; task_id: string; revision: string }; value: number; date: unknown; notes: string; source: { url: string } };

/** How huggingface_hub reads the file: PyYAML, a YAML 1.1 reader, for which an unquoted 2026-11-30 is a date. */
function parseAsPyYaml(body: string): unknown {
  return parse(body, { version: "1.1" });
}

type EeeResult = {
  evaluation_result_id: string;
  source_data: { source_type: string; hf_repo: string; hf_split: string; samples_number: number };
  metric_config: { metric_id: string; metric_kind: string; metric_parameters?: Record<string, number>; lower_is_better: boolean; min_score: number; max_score: number };
  score_details: {
    score: number;
    uncertainty: { confidence_interval?: { lower: number; upper: number; confidence_level: number; method: string }; num_samples: number; num_bootstrap_samples?: number };
  };
};

describe("hub exports", () => {
  it("writes a model-index block whose metrics are the entry's values and whose dataset type is a Hub dataset id", () => {
    const rendered = renderHubExport(scored(), "model-index", CONTEXT);
    expect(rendered.contentType).toBe("application/yaml; charset=utf-8");
    expect(rendered.filename).toBe("irc-bench-demo-1.0-ada-rag-v2-model-index.yaml");
    const parsed = parse(rendered.body) as { "model-index": { name: string; results: { task: { type: string }; dataset: Record<string, string>; metrics: { type: string; value: number; name: string }[] }[] }[] };
    const [model] = parsed["model-index"];
    expect(model?.name).toBe("Ada RAG v2");
    const [result] = model?.results ?? [];
    expect(result?.task.type).toBe("implicit-entity-recognition");
    expect(result?.dataset).toEqual({ name: "irc-bench-demo 1.0 (test)", type: "irc-bench/irc-bench-demo", split: "test", revision: "1.0" });
    expect(result?.metrics.map((metric) => [metric.type, metric.value])).toEqual([
      ["exact", 0.301],
      ["alias", 0.412],
      ["contain", 0.43],
      ["jaccard", 0.455],
    ]);
  });

  it("quotes in the YAML every string a YAML 1.1 reader would take for something else (a system named On, a version 1.0)", () => {
    const body = renderHubExport({ ...scored(), system: "On" }, "model-index", CONTEXT).body;
    const parsed = parseAsPyYaml(body) as { "model-index": { name: unknown; results: { dataset: { revision: unknown } }[] }[] };
    expect(parsed["model-index"][0]?.name).toBe("On");
    expect(parsed["model-index"][0]?.results[0]?.dataset.revision).toBe("1.0");
  });

  it("writes one .eval_results item per metric, the date a quoted string, the dataset a Hub id and the interval in its notes", () => {
    const rendered = renderHubExport(scored(), "eval-results", CONTEXT);
    expect(rendered.body).toContain('date: "2026-11-30"');
    const items = parseAsPyYaml(rendered.body) as EvalResultsItem[];
    expect(items).toHaveLength(4);
    expect(items[1]).toEqual({
      dataset: { id: "irc-bench/irc-bench-demo", task_id: "open_alias", revision: "1.0" },
      value: 0.412,
      date: "2026-11-30",
      source: { url: CONTEXT.entryUrl, name: "IRC-Bench leaderboard: Ada RAG v2" },
      notes: "Alias on the ranking slice of the test split (400 samples), scorer 1.1.0; 95% CI [0.390, 0.434] (made from the shown value v and n (Binomial(n, v) quantiles plus the public noise, always containing v; protocol §12))",
    });
    expect(items.map((item) => typeof item.date)).toEqual(["string", "string", "string", "string"]);
  });

  it("names the configured HF_DATASET_ID as every item's dataset", () => {
    const items = parse(renderHubExport(scored(), "eval-results", { ...CONTEXT, hfDatasetId: "org/irc-bench" }).body) as EvalResultsItem[];
    expect(items.map((item) => item.dataset.id)).toEqual(["org/irc-bench", "org/irc-bench", "org/irc-bench", "org/irc-bench"]);
  });

  it("says of a dev entry's interval that it is the seeded section 9 bootstrap, with its resamples", () => {
    const items = parse(renderHubExport(scored(DEV_BASELINE), "eval-results", CONTEXT).body) as EvalResultsItem[];
    expect(items[0]?.notes).toBe("Hit@1 on the dev split (1,250 samples), scorer 1.1.0; 95% CI [0.277, 0.326] (percentile bootstrap, 1,000 resamples, seed 42, protocol section 9)");
    // The value itself stays at full precision (a dev entry's numbers are not rounded).
    expect(items[0]?.value).toBe(0.3016);
  });

  it("writes a Papers-with-Code-style table with the same numbers", () => {
    const rendered = renderHubExport(scored(), "pwc", CONTEXT);
    expect(rendered.contentType).toBe("application/json; charset=utf-8");
    const parsed = JSON.parse(rendered.body) as { datasets: { sota: { metrics: string[]; rows: { model_name: string; metrics: Record<string, number>; uses_additional_data: boolean; paper_url: string; paper_date: string }[] } }[] };
    const row = parsed.datasets[0]?.sota.rows[0];
    expect(parsed.datasets[0]?.sota.metrics).toEqual(["Exact", "Alias", "Contain", "Jaccard"]);
    expect(row).toMatchObject({ model_name: "Ada RAG v2", paper_url: "https://example.org/paper", uses_additional_data: false, paper_date: "2026-11-30" });
    expect(row?.metrics).toEqual({ Exact: 0.301, Alias: 0.412, Contain: 0.43, Jaccard: 0.455 });
  });

  it("names closed-world metrics so other hubs accept them (hit@1 -> hit_at_1)", () => {
    const closed = { ...scored(), track: "closed" as const, score: { ...scored().score, metrics: { "hit@1": 0.2, mrr: 0.251 }, ci95: {} } };
    const parsed = parse(renderHubExport(closed, "model-index", CONTEXT).body) as { "model-index": { results: { metrics: { type: string; value: number }[] }[] }[] };
    expect(parsed["model-index"][0]?.results[0]?.metrics).toEqual([
      { type: "hit_at_1", value: 0.2, name: "Hit@1 (test)" },
      { type: "mrr", value: 0.251, name: "MRR (test)" },
    ]);
  });
});

describe("the Hub dataset id", () => {
  it("is HF_DATASET_ID when set, else the release name under the irc-bench namespace, made a name the Hub accepts", () => {
    expect(hubDatasetIdOf("irc-bench-demo", undefined)).toBe("irc-bench/irc-bench-demo");
    expect(hubDatasetIdOf("IRC Bench 2026 (pilot)!", undefined)).toBe("irc-bench/irc-bench-2026-pilot");
    expect(hubDatasetIdOf("--", undefined)).toBe("irc-bench/unnamed");
    expect(hubDatasetIdOf("irc-bench-demo", "org/irc-bench")).toBe("org/irc-bench");
  });

  it("is checked in the environment as namespace/name", () => {
    const base = { DATABASE_URL: "postgresql://u:p@127.0.0.1:5432/db", REDIS_URL: "redis://127.0.0.1:6379" };
    const issuesOf = (value: string) => {
      const parsed = envSchema.safeParse({ ...base, HF_DATASET_ID: value });
      return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    };
    expect(envSchema.parse(base).HF_DATASET_ID).toBeUndefined();
    expect(issuesOf("org/irc-bench")).toEqual([]);
    expect(issuesOf("Org_1/irc.bench-v1.2")).toEqual([]);
    for (const bad of ["irc-bench", "org/irc-bench/extra", "org/-irc", "org/irc bench", "/irc-bench"]) {
      expect(issuesOf(bad), bad).toEqual([expect.stringMatching(/^HF_DATASET_ID: must be a Hugging Face Hub dataset id namespace\/name/)]);
    }
    expect(issuesOf("org/irc--bench")).toEqual(["HF_DATASET_ID: must not contain -- or .. (the Hub refuses such names)"]);
  });
});

describe("the Every Eval Ever export", () => {
  it("is valid against the Every Eval Ever 0.3.0 schema, for a test entry and for a dev baseline", () => {
    expect(everyEvalEverViolations(everyEvalEverDocument(scored(), CONTEXT))).toEqual([]);
    expect(everyEvalEverViolations(everyEvalEverDocument(scored(DEV_BASELINE), { ...CONTEXT, hfDatasetId: "org/irc-bench" }))).toEqual([]);
  });

  it("is refused by the same check when a required field is missing or a value has the wrong type", () => {
    const document = everyEvalEverDocument(scored(), CONTEXT);
    const [first, ...rest] = document.evaluation_results;
    if (first === undefined) throw new Error("the fixture has metrics");
    const { lower_is_better: _dropped, ...config } = first.metric_config;
    const broken = { ...document, evaluation_results: [{ ...first, metric_config: config }, ...rest], retrieved_timestamp: 1796032800 };
    expect(everyEvalEverViolations(broken)).toEqual([
      expect.stringMatching(/^\/retrieved_timestamp: must be string/),
      expect.stringMatching(/^\/evaluation_results\/0\/metric_config: must have required property 'lower_is_better'/),
    ]);
  });

  it("describes the record: source, scorer, model, and when the numbers became the leaderboard's", () => {
    const document = everyEvalEverDocument(scored(), CONTEXT);
    // 2026-11-30T10:00:00Z (publication, after scoring) is 20,787 days and 10 hours after the epoch: 20787 * 86400 + 36000.
    expect(document.retrieved_timestamp).toBe("1796032800");
    expect(document).toMatchObject({
      schema_version: "0.3.0",
      evaluation_id: "irc-bench-demo/ada/ada-rag-v2/1796032800",
      evaluation_timestamp: "2026-11-29T11:00:00.000Z",
      source_metadata: { source_type: "evaluation_run", source_organization_url: "https://bench.example", evaluator_relationship: "third_party" },
      eval_library: { name: "irc-bench-scorer", version: "1.1.0" },
      model_info: { name: "Ada RAG v2", id: "ada/ada-rag-v2", developer: "Ada", additional_details: { deployment_type: "unknown", model_availability: "open_weights" } },
    });
  });

  it("carries each test metric with lower_is_better false and its ranking-slice interval, method and n, and no resample count", () => {
    const results = everyEvalEverDocument(scored(), CONTEXT).evaluation_results as EeeResult[];
    expect(results.map((result) => [result.evaluation_result_id, result.score_details.score, result.metric_config.lower_is_better])).toEqual([
      ["open_exact", 0.301, false],
      ["open_alias", 0.412, false],
      ["open_contain", 0.43, false],
      ["open_jaccard", 0.455, false],
    ]);
    const alias = results[1];
    expect(alias?.source_data).toEqual(expect.objectContaining({ source_type: "hf_dataset", hf_repo: "irc-bench/irc-bench-demo", hf_split: "test", samples_number: 400 }));
    expect(alias?.metric_config).toMatchObject({ metric_id: "irc_bench.open.alias", metric_kind: "accuracy", min_score: 0, max_score: 1 });
    const uncertainty = alias?.score_details.uncertainty;
    expect(uncertainty?.num_samples).toBe(400);
    expect(uncertainty).not.toHaveProperty("num_bootstrap_samples");
    expect(uncertainty?.confidence_interval).toMatchObject({ lower: 0.39, upper: 0.434, confidence_level: 0.95 });
    expect(uncertainty?.confidence_interval?.method).toBe(
      "Each 95% interval is made from the shown value v and the slice's n alone: the 2.5% and 97.5% quantiles of Binomial(n, v) plus the public noise, " +
        "divided by n, widened where needed so that it always contains v (protocol §12). It says nothing the rounded value does not. " +
        "n is the ranking slice's sample count.",
    );
  });

  it("gives a dev baseline's metrics the seeded section 9 bootstrap with its resamples, and marks the maintainers' own system first party", () => {
    const document = everyEvalEverDocument(scored(DEV_BASELINE), { ...CONTEXT, bootstrap: { resamples: 2000, seed: 7 } });
    expect(document.source_metadata.evaluator_relationship).toBe("first_party");
    expect(document.model_info.additional_details.model_availability).toBe("unknown");
    const results = document.evaluation_results as EeeResult[];
    const [hit1, hit3, , , mrr] = results;
    expect(hit1?.source_data).toMatchObject({ hf_split: "val", samples_number: 1250 });
    expect(hit1?.metric_config.metric_parameters).toEqual({ k: 1 });
    expect(hit3?.metric_config.metric_parameters).toEqual({ k: 3 });
    expect(mrr?.metric_config).toMatchObject({ metric_kind: "mrr", lower_is_better: false });
    expect(mrr?.metric_config).not.toHaveProperty("metric_parameters");
    expect(hit1?.score_details).toEqual({
      score: 0.3016,
      details: { samples: "the dev split (1,250 samples)", is_primary: "true" },
      uncertainty: {
        confidence_interval: {
          lower: 0.2768,
          upper: 0.3264,
          confidence_level: 0.95,
          method: "Seeded percentile bootstrap over the n samples of the dev split (protocol v1.3 section 9): 2,000 resamples drawn with replacement (seed 7); the 2.5% and 97.5% percentiles of the metric over the resamples.",
        },
        num_samples: 1250,
        num_bootstrap_samples: 2000,
      },
    });
  });

  it("leaves the interval out of a metric that has none, keeping n", () => {
    const closed = { ...scored(), track: "closed" as const, score: { ...scored().score, metrics: { "hit@1": 0.2, mrr: 0.251 }, ci95: {} } };
    const document = everyEvalEverDocument(closed, CONTEXT);
    expect(everyEvalEverViolations(document)).toEqual([]);
    expect((document.evaluation_results as EeeResult[]).map((result) => result.score_details.uncertainty)).toEqual([{ num_samples: 400 }, { num_samples: 400 }]);
  });

  it("downloads as JSON named after the release and system", () => {
    const rendered = renderHubExport(scored(), "every-eval-ever", CONTEXT);
    expect(rendered.contentType).toBe("application/json; charset=utf-8");
    expect(rendered.filename).toBe("irc-bench-demo-1.0-ada-rag-v2-every-eval-ever.json");
    expect(everyEvalEverViolations(JSON.parse(rendered.body))).toEqual([]);
  });
});
