import { describe, expect, it } from "vitest";
import type { ScoreReport } from "@/lib/scoring/report-schema";
import { discloseComparison, discloseReport, disclosureLevelFor, pValueBucket, roundRate, verdictOf } from "./disclose";

const group = (n: number, hit1: number | null, mrr: number | null) => ({
  n,
  metrics: { "hit@1": hit1, "hit@3": hit1, "hit@5": hit1, "hit@10": hit1, mrr, "alias_hit@1": hit1 },
  ci95: { "hit@1": hit1 === null ? null : [0.1, 0.9], "hit@3": null, "hit@5": null, "hit@10": null, mrr: mrr === null ? null : [0.2, 0.8], "alias_hit@1": null },
});

function closedReport(split: "dev" | "test"): ScoreReport {
  return {
    scorer_version: "1.1.0",
    split,
    track: "closed",
    n: 100,
    metrics: { "hit@1": 1 / 3, "hit@3": 0.5, "hit@5": 0.5, "hit@10": 0.5, mrr: 0.123456, "alias_hit@1": 0.0625 },
    ci95: { "hit@1": [0.2344, 0.41251], "hit@3": [0.4, 0.6], "hit@5": [0.4, 0.6], "hit@10": [0.4, 0.6], mrr: [0.1, 0.15], "alias_hit@1": [0, 0.1] },
    by_type: {
      Place: group(50, 0.42, 0.5),
      Organization: group(35, 0.2, 0.3),
      Person: group(10, 0.1, 0.2),
      Event: group(5, 0.6, 0.7),
      Work: group(0, null, null),
      "Military Unit": group(0, null, null),
      Other: group(0, null, null),
    },
    by_collection: {
      Veterans: { n: 70, metrics: { "hit@1": 0.3, "hit@3": 0.5, "hit@5": 0.5, "hit@10": 0.5, mrr: 0.4, "alias_hit@1": 0.3 } },
      Labor: { n: 30, metrics: { "hit@1": 0.4, "hit@3": 0.5, "hit@5": 0.5, "hit@10": 0.5, mrr: 0.45, "alias_hit@1": 0.4 } },
    },
    comparisons: [],
  } as ScoreReport;
}

describe("disclosureLevelFor (section 12)", () => {
  it("gives maintainers and the dev split everything, the public the public report, the owner of a private test file the least", () => {
    expect(disclosureLevelFor({ split: "test", isPublic: false, isMaintainer: true })).toBe("full");
    expect(disclosureLevelFor({ split: "dev", isPublic: false, isMaintainer: false })).toBe("full");
    expect(disclosureLevelFor({ split: "test", isPublic: true, isMaintainer: false })).toBe("public");
    expect(disclosureLevelFor({ split: "test", isPublic: false, isMaintainer: false })).toBe("owner");
  });
});

describe("roundRate", () => {
  it("keeps 3 decimals (0.1 percentage point)", () => {
    expect(roundRate(1 / 3)).toBe(0.333);
    expect(roundRate(0.123456)).toBe(0.123);
    expect(roundRate(0.9996)).toBe(1);
    expect(roundRate(0.0625)).toBe(0.063);
    expect(roundRate(1 / 2000)).toBe(0.001);
    expect(roundRate(0)).toBe(0);
  });
});

describe("discloseReport", () => {
  it("shows the owner of an unpublished test file rounded overall numbers and no group at all", () => {
    const out = discloseReport(closedReport("test"), { level: "owner", minGroupN: 30 });
    expect(out.metrics).toEqual({ "hit@1": 0.333, "hit@3": 0.5, "hit@5": 0.5, "hit@10": 0.5, mrr: 0.123, "alias_hit@1": 0.063 });
    // Not the stored [0.2344, 0.41251]: from the disclosed 0.333 and n = 100 only, 33 of 100: Binomial quantiles 24 and 42
    // (owner-interval.ts; computed with exact rationals outside this code). The public sees the stored one, rounded.
    expect(out.ci95["hit@1"]).toEqual([0.24, 0.42]);
    expect(discloseReport(closedReport("test"), { level: "public", minGroupN: 30 }).ci95["hit@1"]).toEqual([0.234, 0.413]);
    expect(out.by_type).toBeNull();
    expect(out.by_collection).toBeNull();
    expect(out.disclosure.level).toBe("owner");
  });

  it("suppresses small public groups, and the next smallest when the hidden ones could be had by subtraction", () => {
    const out = discloseReport(closedReport("test"), { level: "public", minGroupN: 30 });
    const byType = out.by_type!;
    // Person (10) and Event (5) are below 30 and hold 15 together, fewer than 30:
    // Organization (35), the smallest shown group, is hidden too.
    expect(byType.Person).toEqual({ n: 10, isSuppressed: true, metrics: {}, ci95: {} });
    expect(byType.Event).toEqual({ n: 5, isSuppressed: true, metrics: {}, ci95: {} });
    expect(byType.Organization).toEqual({ n: 35, isSuppressed: true, metrics: {}, ci95: {} });
    expect(byType.Place?.isSuppressed).toBe(false);
    expect(byType.Place?.metrics).toEqual({ "hit@1": 0.42, "hit@3": 0.42, "hit@5": 0.42, "hit@10": 0.42, "alias_hit@1": 0.42 });
    expect(byType.Place?.ci95).not.toHaveProperty("mrr");
    // Empty types carry no outcome: shown as n = 0.
    expect(byType.Work).toMatchObject({ n: 0, isSuppressed: false });
    // Collections of 70 and 30: both shown, without MRR.
    expect(out.by_collection!.Labor).toEqual({ n: 30, isSuppressed: false, metrics: { "hit@1": 0.4, "hit@3": 0.5, "hit@5": 0.5, "hit@10": 0.5, "alias_hit@1": 0.4 }, ci95: {} });
    expect(out.disclosure).toEqual({ level: "public", min_group_n: 30 });
  });

  it("hides nothing more when the hidden groups already hold min_group_n samples", () => {
    const out = discloseReport(closedReport("test"), { level: "public", minGroupN: 10 });
    expect(out.by_type!.Event?.isSuppressed).toBe(true);
    // Event (5) alone is hidden: 5 < 10, so the smallest shown group (Person, 10) is hidden too; then 15 >= 10.
    expect(out.by_type!.Person?.isSuppressed).toBe(true);
    expect(out.by_type!.Organization?.isSuppressed).toBe(false);
  });

  it("leaves the dev split and maintainers at full precision", () => {
    for (const out of [discloseReport(closedReport("dev"), { level: "owner", minGroupN: 30 }), discloseReport(closedReport("test"), { level: "full", minGroupN: 30 })]) {
      expect(out.metrics["hit@1"]).toBe(1 / 3);
      expect(out.by_type!.Event).toMatchObject({ n: 5, isSuppressed: false, metrics: { mrr: 0.7 } });
      expect(out.by_collection!.Labor?.metrics.mrr).toBe(0.45);
    }
  });
});

describe("comparisons", () => {
  const stored = { baselineId: "b1", baselineLabel: "BM25", family: "track" as const, identicalTo: null, metric: "hit@1", b: 40, c: 10, chi2: 16.82, p: 4.1e-5, pExact: 2.2e-5, pHolm: 8.2e-5 };

  it("buckets p", () => {
    expect(pValueBucket(0.0009)).toBe("< 0.001");
    expect(pValueBucket(0.001)).toBe("< 0.01");
    expect(pValueBucket(0.049)).toBe("< 0.05");
    expect(pValueBucket(0.05)).toBe(">= 0.05");
  });

  it("gives the owner a verdict and a bucket, never b, c, chi2 or p", () => {
    const out = discloseComparison(stored, "owner");
    expect(out).toEqual({ kind: "verdict", baselineId: "b1", baselineLabel: "BM25", family: "track", identicalTo: null, metric: "hit@1", verdict: "better", pHolmBucket: "< 0.001" });
    expect(verdictOf({ b: 10, c: 40, pHolm: 0.001 })).toBe("worse");
    expect(verdictOf({ b: 10, c: 40, pHolm: 0.05 })).toBe("no significant difference");
  });

  it("gives the public the counts", () => {
    expect(discloseComparison(stored, "public")).toEqual({ kind: "detail", ...stored });
  });
});
