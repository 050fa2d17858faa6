import { PERTURBATION } from "@/testing/disclosure/perturbation";
import { describe, expect, it } from "vitest";
import type { ScoreReport } from "@/lib/core/scoring/report-schema";
import {
  discloseComparison,
  discloseHeadline,
  discloseReport,
  discloseStoredScore,
  disclosureLevelFor,
  publicGroupPolicy,
  pValueBucket,
  readPair,
  roundGroupRate,
  roundRate,
  verdictOf,
} from "./disclose";

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
      Place: group(50, 0.4249, 0.5),
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
    const out = discloseReport(closedReport("test"), { level: "owner", minGroupN: 30 }, "feedback");
    expect(out.metrics).toEqual({ "hit@1": 0.333, "hit@3": 0.5, "hit@5": 0.5, "hit@10": 0.5, mrr: 0.123, "alias_hit@1": 0.063 });
    // Not the stored [0.2344, 0.41251]: from the disclosed 0.333 and n = 100 only: the 2.5% and 97.5% quantiles of
    // Binomial(100, 0.333) are 24 and 43 (computed outside this code, with Python's math.comb).
    expect(out.ci95["hit@1"]).toEqual([0.24, 0.43]);
    expect(out.by_type).toBeNull();
    expect(out.by_collection).toBeNull();
    expect(out.disclosure.level).toBe("owner");
  });

  it("makes every public number from perturbed counts (section 12, v1.3), as an independent implementation does", () => {
    // Expected values from /protocol §12's text in Python (hmac, hashlib, math.comb): z of entry-1/METRIC/all is
    // hit@1 +2, hit@3 +3, hit@5 +3, hit@10 -4, mrr +3, alias_hit@1 +2; then the running maximum (hit@10 rises to
    // hit@5's 53; MRR's sum 15.35 and alias_hit@1's 8 rise to hit@1's 35), then half up on integers.
    const out = discloseReport(closedReport("test"), { level: "public", minGroupN: 30, perturbation: PERTURBATION }, "ranking");
    expect(out.metrics).toEqual({ "hit@1": 0.35, "hit@3": 0.53, "hit@5": 0.53, "hit@10": 0.53, mrr: 0.35, "alias_hit@1": 0.35 });
    // Quantiles of Binomial(100, 0.35) plus the noise's distribution, clamped to [0, 100].
    expect(out.ci95["hit@1"]).toEqual([0.22, 0.48]);
    for (const [key, interval] of Object.entries(out.ci95)) expect(interval![0] <= out.metrics[key]! && out.metrics[key]! <= interval![1]).toBe(true);
  });

  it("suppresses small public groups, and the next smallest when the hidden ones could be had by subtraction", () => {
    const out = discloseReport(closedReport("test"), { level: "public", minGroupN: 30, perturbation: PERTURBATION }, "ranking");
    const byType = out.by_type!;
    // Person (10) and Event (5) are below 30 and hold 15 together, fewer than 30:
    // Organization (35), the smallest shown group, is hidden too.
    expect(byType.Person).toEqual({ n: 10, isSuppressed: true, metrics: {}, ci95: {} });
    expect(byType.Event).toEqual({ n: 5, isSuppressed: true, metrics: {}, ci95: {} });
    expect(byType.Organization).toEqual({ n: 35, isSuppressed: true, metrics: {}, ci95: {} });
    expect(byType.Place?.isSuppressed).toBe(false);
    // 21 of 50 samples, perturbed under entry-1/METRIC/type/Place (independently computed), to 1 point below 1,000 samples.
    expect(byType.Place?.metrics).toEqual({ "hit@1": 0.42, "hit@3": 0.42, "hit@5": 0.42, "hit@10": 0.42, "alias_hit@1": 0.42 });
    // From the shown 0.42 and n = 50 with the noise (independently computed), not the stored [0.1, 0.9].
    expect(byType.Place?.ci95["hit@1"]).toEqual([0.2, 0.64]);
    expect(byType.Place?.ci95).not.toHaveProperty("mrr");
    // Empty types carry no outcome: shown as n = 0.
    expect(byType.Work).toMatchObject({ n: 0, isSuppressed: false });
    // Collections of 70 and 30: both shown, without MRR.
    // 12 and 15 of 30, perturbed under entry-1/METRIC/collection/Labor (independently computed).
    expect(out.by_collection!.Labor).toMatchObject({ n: 30, isSuppressed: false, metrics: { "hit@1": 0.5, "hit@3": 0.67, "hit@5": 0.67, "hit@10": 0.67, "alias_hit@1": 0.5 } });
    expect(out.disclosure).toEqual({ level: "public", min_group_n: 30, coarse_below_n: 1000, slice: "ranking" });
  });

  it("hides nothing more when the hidden groups already hold min_group_n samples", () => {
    const out = discloseReport(closedReport("test"), { level: "public", minGroupN: 10, perturbation: PERTURBATION }, "ranking");
    expect(out.by_type!.Event?.isSuppressed).toBe(true);
    // Event (5) alone is hidden: 5 < 10, so the smallest shown group (Person, 10) is hidden too; then 15 >= 10.
    expect(out.by_type!.Person?.isSuppressed).toBe(true);
    expect(out.by_type!.Organization?.isSuppressed).toBe(false);
  });

  it("leaves the dev split and maintainers at full precision", () => {
    for (const out of [discloseReport(closedReport("dev"), { level: "owner", minGroupN: 30 }, "whole"), discloseReport(closedReport("test"), { level: "full", minGroupN: 30 }, "whole")]) {
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

  it("gives counts to maintainers only: the public gets a verdict too (section 12)", () => {
    expect(discloseComparison(stored, "full")).toEqual({ kind: "detail", ...stored });
    expect(discloseComparison(stored, "public").kind).toBe("verdict");
  });

  it("reads a public pair as a verdict, a bucket and the difference of the shown values", () => {
    expect(readPair({ verdict: "better", pHolm: 0.0042 }, 0.389, 0.351)).toEqual({ verdict: "better", pBucket: "< 0.01", difference: 0.038 });
    expect(readPair({ verdict: "no significant difference", pHolm: 0.0605 }, 0.3, 0.301)).toEqual({ verdict: "no significant difference", pBucket: ">= 0.05", difference: -0.001 });
    // A small two-sided p against the shown order (the unified view: one track's metric tested, the alias metric shown) is no verdict, and reads as one.
    expect(readPair({ verdict: "no significant difference", pHolm: 0.004 }, 0.31, 0.309)).toEqual({ verdict: "no significant difference", pBucket: ">= 0.05", difference: 0.001 });
  });
});

describe("slices (section 12)", () => {
  const whole = closedReport("test");
  const feedback = { ...closedReport("test"), n: 25 };
  const ranking = { ...closedReport("test"), n: 75 };
  const stored = { report: whole, feedbackReport: feedback, rankingReport: ranking };

  it("shows the owner the feedback slice, the public the ranking slice, a maintainer the whole split with both", () => {
    expect(discloseStoredScore(stored, { level: "owner", minGroupN: 30 })?.report).toMatchObject({ n: 25, disclosure: { slice: "feedback" } });
    expect(discloseStoredScore(stored, { level: "public", minGroupN: 30, perturbation: PERTURBATION })?.report).toMatchObject({ n: 75, disclosure: { slice: "ranking" } });
    const full = discloseStoredScore(stored, { level: "full", minGroupN: 30 });
    expect(full?.report).toMatchObject({ n: 100, disclosure: { slice: "whole" } });
    expect(full?.slices?.feedback.n).toBe(25);
    expect(full?.slices?.ranking.metrics["hit@1"]).toBe(1 / 3);
  });

  it("names the group policy a public report was disclosed under, so every page states the rule it was made with", () => {
    expect(discloseStoredScore(stored, { level: "public", minGroupN: 201, coarseBelowN: 2000, perturbation: PERTURBATION })?.report.disclosure).toEqual({ level: "public", min_group_n: 201, coarse_below_n: 2000, slice: "ranking" });
    expect(discloseStoredScore(stored, { level: "public", minGroupN: 30, perturbation: PERTURBATION })?.report.disclosure.coarse_below_n).toBe(1000);
    expect(discloseStoredScore(stored, { level: "owner", minGroupN: 30 })?.report.disclosure).toEqual({ level: "owner", min_group_n: null, coarse_below_n: null, slice: "feedback" });
  });

  it("shows nothing of a test score stored before the slices", () => {
    const before = { report: whole, feedbackReport: null, rankingReport: null };
    expect(discloseStoredScore(before, { level: "owner", minGroupN: 30 })).toBeNull();
    expect(discloseStoredScore(before, { level: "public", minGroupN: 30, perturbation: PERTURBATION })).toBeNull();
  });

  it("gives each asker the headline of their slice", () => {
    const headlines = { primary: 0.41, unified: 0.42, feedbackPrimary: 0.38119, rankingReport: stored.rankingReport };
    expect(discloseHeadline(headlines, "primary", "owner", "test")).toBe(0.381);
    expect(discloseHeadline(headlines, "unified", "owner", "test")).toBeNull();
    // The public's: the ranking report's perturbed count, exactly as the public report shows it.
    const publicReport = discloseStoredScore(stored, { level: "public", minGroupN: 30, perturbation: PERTURBATION })!.report;
    expect(discloseHeadline(headlines, "primary", "public", "test", PERTURBATION)).toBe(publicReport.metrics["hit@1"]);
    expect(discloseHeadline(headlines, "unified", "public", "test", PERTURBATION)).toBe(publicReport.metrics["alias_hit@1"]);
    expect(() => discloseHeadline(headlines, "primary", "public", "test")).toThrow(/perturbation/);
    expect(discloseHeadline(headlines, "primary", "full", "test")).toBe(0.41);
    expect(discloseHeadline(headlines, "primary", "owner", "dev")).toBe(0.41);
  });

  it("rounds public group rates to 1 point below 1,000 samples", () => {
    expect(roundGroupRate(0.4249, 999)).toBe(0.42);
    expect(roundGroupRate(0.4249, 1000)).toBe(0.425);
  });
});

describe("the public group policy (section 12, v1.3)", () => {
  it("is section 12's floor: min_group_n, and 1-point rates below 1,000 ranking samples", () => {
    expect(publicGroupPolicy({ minGroupN: 5 })).toEqual({ minGroupN: 5, coarseBelowN: 1000 });
    expect(publicGroupPolicy({ minGroupN: 30 })).toEqual({ minGroupN: 30, coarseBelowN: 1000 });
  });

  it("refuses a public ranking-slice report without its perturbation", () => {
    expect(() => discloseReport(closedReport("test"), { level: "public", minGroupN: 30 }, "ranking")).toThrow(/perturbation/);
  });
});
