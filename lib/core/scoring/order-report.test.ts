import { describe, expect, it } from "vitest";
import { orderReport } from "./order-report";
import type { ScoreReport } from "./report-schema";

describe("orderReport", () => {
  it("puts metrics, types and collections back in the scorer's order without touching values", () => {
    // Keys as PostgreSQL jsonb returns them: shorter keys first.
    const stored = {
      n: 3,
      split: "dev",
      track: "closed",
      scorer_version: "1.0.0",
      metrics: { mrr: 0.5, "hit@1": 0.25, "hit@3": 0.5, "hit@5": 0.75, "hit@10": 1, "alias_hit@1": 0.25 },
      ci95: { mrr: [0, 1], "hit@1": [0, 1], "hit@3": [0, 1], "hit@5": [0, 1], "hit@10": [1, 1], "alias_hit@1": [0, 1] },
      by_type: { Work: { n: 1, metrics: { mrr: 1, "hit@1": 1 }, ci95: {} }, Place: { n: 2, metrics: { mrr: 0.25, "hit@1": 0 }, ci95: {} } },
      by_collection: { Labor: { n: 1, metrics: { mrr: 1 } }, Academic: { n: 2, metrics: { mrr: 0.25 } } },
      comparisons: [],
    } as unknown as ScoreReport;
    const ordered = orderReport(stored);
    expect(Object.keys(ordered.metrics)).toEqual(["hit@1", "hit@3", "hit@5", "hit@10", "mrr", "alias_hit@1"]);
    expect(Object.keys(ordered.ci95)).toEqual(["hit@1", "hit@3", "hit@5", "hit@10", "mrr", "alias_hit@1"]);
    expect(Object.keys(ordered.by_type)).toEqual(["Place", "Work"]);
    expect(Object.keys((ordered.by_type as Record<string, { metrics: object }>).Work!.metrics)).toEqual(["hit@1", "mrr"]);
    expect(Object.keys(ordered.by_collection)).toEqual(["Academic", "Labor"]);
    expect(ordered.metrics).toEqual(stored.metrics);
  });
});
