import { describe, expect, it } from "vitest";
import { formatReportTable } from "./format-report-table";
import type { ClosedScoreReport } from "./report-schema";

const nullGroup = {
  n: 0,
  metrics: { "hit@1": null, "hit@3": null, "hit@5": null, "hit@10": null, mrr: null, "alias_hit@1": null },
  ci95: { "hit@1": null, "hit@3": null, "hit@5": null, "hit@10": null, mrr: null, "alias_hit@1": null },
};
const metrics = { "hit@1": 0.5, "hit@3": 0.75, "hit@5": 0.75, "hit@10": 1, mrr: 0.625, "alias_hit@1": 0.5 };
const ci95 = {
  "hit@1": [0, 1] as [number, number],
  "hit@3": [0.25, 1] as [number, number],
  "hit@5": [0.25, 1] as [number, number],
  "hit@10": [1, 1] as [number, number],
  mrr: [0.25, 1] as [number, number],
  "alias_hit@1": [0, 1] as [number, number],
};
const report: ClosedScoreReport = {
  scorer_version: "1.0.0",
  split: "dev",
  track: "closed",
  n: 4,
  metrics,
  ci95,
  by_type: {
    Place: { n: 4, metrics, ci95 },
    Organization: nullGroup,
    Person: nullGroup,
    Event: nullGroup,
    Work: nullGroup,
    "Military Unit": nullGroup,
    Other: nullGroup,
  },
  by_collection: { Veterans: { n: 4, metrics } },
  comparisons: [{ baseline: "base.jsonl", metric: "hit@1", b: 120, c: 400, chi2: 149.694, p: 2.02e-34, p_exact: 3.41e-36, p_holm: 0.0125 }],
};

describe("formatReportTable", () => {
  const text = formatReportTable(report, { seed: 42, resamples: 1000, source: "preds.jsonl" });
  const lines = text.split("\n");

  it("heads the table with the file, split, track and bootstrap settings", () => {
    expect(lines[0]).toBe("preds.jsonl: IRC-Bench scorer 1.0.0, dev split, closed-world track, n = 4");
    expect(lines[1]).toContain("1000 resamples, seed 42");
  });

  it("shows rates as percentages, mrr as a fraction, n = 0 types as dashes", () => {
    expect(text).toMatch(/^hit@1\s+50\.00%\s+\[0\.00%, 100\.00%\]$/m);
    expect(text).toMatch(/^mrr\s+0\.6250\s+\[0\.2500, 1\.0000\]$/m);
    expect(text).toMatch(/^Organization\s+0(\s+–){7}$/m);
  });

  it("lists comparisons with small p-values in exponent form", () => {
    expect(text).toMatch(/^base\.jsonl\s+hit@1\s+120\s+400\s+149\.69\s+< 0\.001\s+< 0\.001\s+0\.0125$/m);
  });
});
