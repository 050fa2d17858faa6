import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { EntryDetail } from "./entry-types";
import { hasScore, renderHubExport } from "./hub-exports";

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
    goldVersion: "g1",
    computedAt: "2026-11-29T11:00:00.000Z",
    isStale: false,
    minGroupN: 30,
    metrics: { exact: 0.301, alias: 0.412, contain: 0.43, jaccard: 0.455 },
    ci95: { exact: [0.28, 0.322], alias: [0.39, 0.434], contain: [0.41, 0.452], jaccard: [0.433, 0.477] },
    byType: {},
    byCollection: {},
  },
  comparisons: [],
};
const CONTEXT = { entryUrl: "https://bench.example/entries/entry1" };

function scored() {
  if (!hasScore(ENTRY)) throw new Error("fixture has a score");
  return ENTRY;
}

describe("hub exports", () => {
  it("writes a model-index block whose metrics are the entry's values", () => {
    const rendered = renderHubExport(scored(), "model-index", CONTEXT);
    expect(rendered.contentType).toBe("application/yaml; charset=utf-8");
    expect(rendered.filename).toBe("irc-bench-demo-1.0-ada-rag-v2-model-index.yaml");
    const parsed = parse(rendered.body) as { "model-index": { name: string; results: { task: { type: string }; dataset: Record<string, string>; metrics: { type: string; value: number; name: string }[] }[] }[] };
    const [model] = parsed["model-index"];
    expect(model?.name).toBe("Ada RAG v2");
    const [result] = model?.results ?? [];
    expect(result?.task.type).toBe("implicit-entity-recognition");
    expect(result?.dataset).toMatchObject({ name: "irc-bench-demo 1.0 (test)", type: "irc-bench-demo", split: "test", revision: "1.0" });
    expect(result?.metrics.map((metric) => [metric.type, metric.value])).toEqual([
      ["exact", 0.301],
      ["alias", 0.412],
      ["contain", 0.43],
      ["jaccard", 0.455],
    ]);
  });

  it("writes one .eval_results item per metric with the interval in its notes", () => {
    const rendered = renderHubExport(scored(), "eval-results", CONTEXT);
    const items = parse(rendered.body) as { dataset: { id: string; task_id: string }; value: number; date: string; notes: string; source: { url: string } }[];
    expect(items).toHaveLength(4);
    expect(items[1]).toMatchObject({ dataset: { id: "irc-bench-demo", task_id: "open_alias" }, value: 0.412, date: "2026-11-30", source: { url: CONTEXT.entryUrl } });
    expect(items[1]?.notes).toContain("95% CI [0.39, 0.434]");
  });

  it("writes a Papers-with-Code-style table with the same numbers", () => {
    const rendered = renderHubExport(scored(), "pwc", CONTEXT);
    expect(rendered.contentType).toBe("application/json; charset=utf-8");
    const parsed = JSON.parse(rendered.body) as { datasets: { sota: { metrics: string[]; rows: { model_name: string; metrics: Record<string, number>; uses_additional_data: boolean; paper_url: string }[] } }[] };
    const row = parsed.datasets[0]?.sota.rows[0];
    expect(parsed.datasets[0]?.sota.metrics).toEqual(["Exact", "Alias", "Contain", "Jaccard"]);
    expect(row).toMatchObject({ model_name: "Ada RAG v2", paper_url: "https://example.org/paper", uses_additional_data: false });
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
