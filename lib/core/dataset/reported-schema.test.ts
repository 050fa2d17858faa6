import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findReleaseFor, parseReportedFile, parseReportedText, type ReportedFile } from "./reported-schema";

const valid = {
  release: { name: "irc-bench", version: "1.0" },
  results: [
    {
      name: "O1 GPT-4o, zero-shot",
      track: "open",
      split: "test",
      metrics: { exact: 0.2702, alias: 0.333, contain: 0.333, jaccard: 0.3505 },
      by_type: { Place: { n: 2076, metrics: { jaccard: 0.3815 } } },
      source: "IRC-Bench paper, Table 4",
    },
    {
      name: "C5 DPR (fine-tuned), description",
      track: "closed",
      split: "test",
      metrics: { "hit@1": 0.3538, "hit@3": 0.5351, "hit@5": 0.6182, "hit@10": 0.7149, mrr: 0.4751, "alias_hit@1": 0.428 },
      source: "IRC-Bench paper, Table 5",
    },
  ],
};

function problemsOf(value: unknown): string[] {
  const result = parseReportedFile(value);
  return result.ok ? [] : result.problems.map((problem) => `${problem.path}: ${problem.message}`);
}

function withResult(change: Record<string, unknown>, index = 0) {
  return { ...valid, results: valid.results.map((row, i) => (i === index ? { ...row, ...change } : row)) };
}

describe("parseReportedFile", () => {
  it("accepts a well-formed file", () => {
    const result = parseReportedFile(valid);
    expect(result.ok).toBe(true);
  });

  it("names the path of a percentage written where a fraction belongs", () => {
    expect(problemsOf(withResult({ metrics: { exact: 27.02, alias: 0.333 } }))).toEqual([
      "results[0].metrics.exact: must be a fraction in [0, 1]; write 38.94% as 0.3894",
    ]);
  });

  it("refuses metrics of the other track and unknown fields", () => {
    expect(problemsOf(withResult({ metrics: { "hit@1": 0.2 } }))).toEqual(['results[0].metrics: unknown field "hit@1"']);
    expect(problemsOf({ ...valid, extra: true })).toEqual(['(file): unknown field "extra"']);
  });

  it("refuses an unknown track, split or entity type", () => {
    expect(problemsOf(withResult({ track: "hybrid" }))).toEqual(['results[0].track: must be "open" or "closed"']);
    expect(problemsOf(withResult({ split: "train" }))).toEqual(['results[0].split: must be one of "dev", "test"']);
    const [problem] = problemsOf(withResult({ by_type: { Planet: { metrics: { jaccard: 0.1 } } } }));
    expect(problem).toMatch(/^results\[0\]\.by_type: unknown field "Planet"; entity types are Place, Organization/);
  });

  it("requires a name, a source and at least one metric", () => {
    expect(problemsOf(withResult({ name: undefined }))).toEqual(["results[0].name: is missing (expected string)"]);
    expect(problemsOf(withResult({ source: "" }))[0]).toMatch(/^results\[0\]\.source: /);
    expect(problemsOf(withResult({ metrics: {} }))).toEqual(["results[0].metrics: must give at least one metric"]);
  });

  it("catches columns copied in the wrong order (cumulative tiers, hit@k)", () => {
    expect(problemsOf(withResult({ metrics: { exact: 0.2571, alias: 0.335, contain: 0.2709, jaccard: 0.3594 } }))).toEqual([
      "results[0].metrics.contain: contain (0.2709) is below alias (0.335), but tiers are cumulative (protocol section 6): exact <= alias <= contain <= jaccard; check the order of the table's columns",
    ]);
    expect(problemsOf(withResult({ metrics: { "hit@1": 0.3, "hit@3": 0.25, mrr: 0.35 } }, 1))).toEqual([
      "results[1].metrics.hit@3: hit@3 (0.25) is below hit@1 (0.3), but hit@k grows with k; check the order of the table's columns",
    ]);
    expect(problemsOf(withResult({ metrics: { "hit@1": 0.3, mrr: 0.2 } }, 1))).toEqual([
      "results[1].metrics.mrr: mrr (0.2) is below hit@1 (0.3), but MRR counts every rank-1 sample in full, so it is at least hit@1; check the order of the table's columns",
    ]);
  });

  it("takes an optional paper date written YYYY-MM-DD and names a bad one", () => {
    const dated = { ...valid, results: [{ ...valid.results[0], date: "2026-05-01" }] };
    const parsed = parseReportedFile(dated);
    expect(parsed.ok && parsed.file.results[0]?.date).toBe("2026-05-01");
    expect(problemsOf({ ...valid, results: [{ ...valid.results[0], date: "May 2026" }] })).toEqual([
      "results[0].date: must be a date written YYYY-MM-DD (the paper's publication date)",
    ]);
  });

  it("refuses the same result twice", () => {
    const file = { ...valid, results: [...valid.results, valid.results[0]] };
    expect(problemsOf(file)).toEqual(['results[2].name: repeats the open-world test result "O1 GPT-4o, zero-shot" of results[0]']);
  });

  it("reports bad JSON as one problem", () => {
    const result = parseReportedText("{not json");
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.problems[0]?.message).toMatch(/^invalid JSON: /);
  });
});

describe("findReleaseFor", () => {
  const releases = [
    { id: "a", name: "irc-bench", version: "1.0" },
    { id: "b", name: "irc-bench", version: "1.1" },
    { id: "c", name: "irc-bench-demo", version: "1.0" },
  ];

  it("matches name and version exactly", () => {
    expect(findReleaseFor({ name: "irc-bench", version: "1.0" }, releases)?.id).toBe("a");
    expect(findReleaseFor({ name: "irc-bench-demo", version: "1.0" }, releases)?.id).toBe("c");
  });

  it("attaches to nothing when the release is not imported", () => {
    expect(findReleaseFor({ name: "irc-bench", version: "2.0" }, releases)).toBeNull();
    expect(findReleaseFor({ name: "IRC-Bench", version: "1.0" }, releases)).toBeNull();
  });
});

describe("data/reported/irc-bench-1.0.json", () => {
  const text = readFileSync(path.resolve(__dirname, "../../../data/reported/irc-bench-1.0.json"), "utf8");
  const result = parseReportedText(text);
  const file = (result.ok ? result.file : null) as ReportedFile;
  const byName = new Map(file?.results.map((row) => [row.name, row]));

  it("validates and names the paper's release", () => {
    expect(result.ok ? [] : result.problems).toEqual([]);
    expect(file.release).toEqual({ name: "irc-bench", version: "1.0" });
  });

  it("holds Table 4 (13 open-world rows) and Table 5 (6 closed-world rows)", () => {
    expect(file.results.filter((row) => row.track === "open")).toHaveLength(13);
    expect(file.results.filter((row) => row.track === "closed")).toHaveLength(6);
    expect(file.results.every((row) => row.split === "test" && row.source.startsWith("IRC-Bench paper, Table"))).toBe(true);
  });

  it("reads Table 4 in its column order: Exact, Alias, Contain, Jaccard", () => {
    expect(byName.get("O10 Llama 3.1 8B (QLoRA), fine-tuned")?.metrics).toEqual({ exact: 0.3894, alias: 0.4142, contain: 0.479, jaccard: 0.5159 });
    expect(byName.get("O3 GPT-4.1-mini, zero-shot")?.metrics).toEqual({ exact: 0.2571, alias: 0.2709, contain: 0.335, jaccard: 0.3594 });
    expect(byName.get("O12b GPT-4o, CoT (t=0.0)")?.metrics).toEqual({ exact: 0.2557, alias: 0.3354, contain: 0.3721, jaccard: 0.3892 });
  });

  it("reads Table 5 with MRR as printed and the rest as fractions", () => {
    expect(byName.get("C5 DPR (fine-tuned), description")?.metrics).toEqual({
      "hit@1": 0.3538,
      "hit@3": 0.5351,
      "hit@5": 0.6182,
      "hit@10": 0.7149,
      mrr: 0.4751,
      "alias_hit@1": 0.428,
    });
  });

  it("keeps Table 7's per-type numbers with their n", () => {
    const o2 = byName.get("O2 GPT-4o, few-shot");
    expect(o2?.by_type?.Event).toEqual({ n: 273, metrics: { jaccard: 0.5018 } });
    expect(byName.get("C1 BGE (off-the-shelf), name")?.by_type?.["Military Unit"]).toEqual({ n: 121, metrics: { "alias_hit@1": 0.2397 } });
    const ns = Object.values(o2?.by_type ?? {}).map((group) => group?.n ?? 0);
    expect(ns.reduce((sum, n) => sum + n, 0)).toBe(4633);
  });
});
