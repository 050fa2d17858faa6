import { describe, expect, it } from "vitest";
import { ENTITY_TYPES } from "@/lib/core/dataset/release-schema";
import { buildGold, buildKbIndex } from "./gold";
import { scoreReportSchema } from "./report-schema";
import type { Interval } from "./bootstrap";
import { bootstrapGroupsOf, buildScoreReport, scorePredictions, SCORER_VERSION } from "./score-report";

const entities = [
  { qid: "Q1", name: "Pearl Harbor", type: "Place" as const, aliases: [] },
  { qid: "Q2", name: "USMC", type: "Organization" as const, aliases: [] },
  { qid: "Q3", name: "United States Marine Corps", type: "Organization" as const, aliases: ["USMC"] },
  { qid: "Q4", name: "Attack on Pearl Harbor", type: "Event" as const, aliases: [] },
  { qid: "Q5", name: "New York City", type: "Place" as const, aliases: ["NYC"] },
  { qid: "Q6", name: "Battle of Midway", type: "Event" as const, aliases: [] },
  ...Array.from({ length: 14 }, (_, i) => ({ qid: `Q${i + 7}`, name: `Entity ${i + 7}`, type: "Other" as const, aliases: [] })),
];
const kb = buildKbIndex(entities);

describe("scorePredictions, open-world (sections 6, 8, 11)", () => {
  const gold = buildGold(
    [
      { id: "s1", qid: "Q1", collection: "Veterans" }, // "pearl harbor" -> tier 1
      { id: "s2", qid: "Q3", collection: "Veterans" }, // "USMC" -> tier 2
      { id: "s3", qid: "Q4", collection: "Labor" }, // "Pearl Harbor" in "attack on pearl harbor" -> tier 3
      { id: "s4", qid: "Q5", collection: "Labor" }, // "York City Council": jaccard 2/4 -> tier 4
      { id: "s5", qid: "Q6", collection: "Veterans" }, // "" -> none
      { id: "s6", qid: "Q6", collection: "Labor" }, // "battle of midway" -> tier 1
    ],
    kb,
  );
  const predictions = new Map([
    ["s1", "pearl harbor"],
    ["s2", "USMC"],
    ["s3", "Pearl Harbor"],
    ["s4", "York City Council"],
    ["s5", ""],
    ["s6", "battle of midway"],
  ]);
  const { report, outcomes } = scorePredictions({ track: "open", split: "dev", predictions, gold, kb });

  it("stores one tier per sample in gold order", () => {
    expect(outcomes.track).toBe("open");
    expect([...outcomes.codes]).toEqual([1, 2, 3, 4, 0, 1]);
  });

  it("reports cumulative tiers as fractions", () => {
    expect(report.scorer_version).toBe(SCORER_VERSION);
    expect(report.split).toBe("dev");
    expect(report.track).toBe("open");
    expect(report.n).toBe(6);
    // exact: s1, s6; alias adds s2; contain adds s3; jaccard adds s4.
    expect(report.metrics).toEqual({ exact: 2 / 6, alias: 3 / 6, contain: 4 / 6, jaccard: 5 / 6 });
  });

  it("breaks down by all seven types in fixed order, n = 0 as null", () => {
    expect(Object.keys(report.by_type)).toEqual([...ENTITY_TYPES]);
    // Place: s1 (tier 1), s4 (tier 4)
    expect(report.by_type.Place.n).toBe(2);
    expect(report.by_type.Place.metrics).toEqual({ exact: 1 / 2, alias: 1 / 2, contain: 1 / 2, jaccard: 1 });
    // Organization: s2 (tier 2)
    expect(report.by_type.Organization.metrics).toEqual({ exact: 0, alias: 1, contain: 1, jaccard: 1 });
    // Event: s3 (tier 3), s5 (none), s6 (tier 1)
    expect(report.by_type.Event.metrics).toEqual({ exact: 1 / 3, alias: 1 / 3, contain: 2 / 3, jaccard: 2 / 3 });
    expect(report.by_type.Person).toEqual({
      n: 0,
      metrics: { exact: null, alias: null, contain: null, jaccard: null },
      ci95: { exact: null, alias: null, contain: null, jaccard: null },
    });
    // A single-sample group resamples to itself: Organization's alias interval is [1, 1].
    expect(report.by_type.Organization.ci95.alias).toEqual([1, 1]);
  });

  it("breaks down by collection, sorted by name", () => {
    expect(Object.keys(report.by_collection)).toEqual(["Labor", "Veterans"]);
    // Labor: s3 (3), s4 (4), s6 (1); Veterans: s1 (1), s2 (2), s5 (none)
    expect(report.by_collection.Labor).toEqual({
      n: 3,
      metrics: { exact: 1 / 3, alias: 1 / 3, contain: 2 / 3, jaccard: 1 },
    });
    expect(report.by_collection.Veterans).toEqual({
      n: 3,
      metrics: { exact: 1 / 3, alias: 2 / 3, contain: 2 / 3, jaccard: 2 / 3 },
    });
  });

  it("gives an interval for every overall metric, containing the estimate", () => {
    for (const key of ["exact", "alias", "contain", "jaccard"] as const) {
      const [lo, hi] = report.ci95[key];
      expect(lo).toBeLessThanOrEqual(report.metrics[key]);
      expect(hi).toBeGreaterThanOrEqual(report.metrics[key]);
      expect(lo).toBeGreaterThanOrEqual(0);
      expect(hi).toBeLessThanOrEqual(1);
    }
  });

  it("matches the report schema and survives JSON", () => {
    expect(scoreReportSchema.parse(JSON.parse(JSON.stringify(report)))).toEqual(report);
    expect(Object.keys(report)).toEqual([
      "scorer_version",
      "split",
      "track",
      "n",
      "metrics",
      "ci95",
      "by_type",
      "by_collection",
      "comparisons",
    ]);
  });

  it("is reproducible from stored outcomes; the seed does not change the metrics", () => {
    expect(buildScoreReport({ split: "dev", outcomes, gold })).toEqual(report);
    const reseeded = buildScoreReport({ split: "dev", outcomes, gold, seed: 1 });
    expect(reseeded.metrics).toEqual(report.metrics);
  });

  it("compares with baselines of either track", () => {
    const withBaselines = buildScoreReport({
      split: "dev",
      outcomes,
      gold,
      baselines: [
        { name: "nothing.jsonl", outcomes: { track: "open", codes: new Uint8Array(6) } },
        // unified = alias_hit@1 bit: samples s3, s4
        { name: "closed.jsonl", outcomes: { track: "closed", codes: Uint8Array.from([2, 0, 129, 128, 0, 0]) } },
      ],
    });
    // Entry alias-right: s1, s2, s6.
    // nothing: b = 3, c = 0, chi2 = (3 - 1)^2 / 3 = 4/3; p = 0.248213078989923591, p_exact = 2/8.
    // closed:  b = 3 (s1, s2, s6), c = 2 (s3, s4), chi2 = 0, p = 1, p_exact = min(1, 2 * 16/32) = 1.
    const [nothing, closed] = withBaselines.comparisons;
    expect(nothing).toMatchObject({ baseline: "nothing.jsonl", metric: "alias", b: 3, c: 0, p_exact: 0.25 });
    expect(nothing?.p).toBeCloseTo(0.248213078989923591, 14);
    expect(nothing?.p_holm).toBeCloseTo(2 * 0.248213078989923591, 14);
    expect(closed).toEqual({ baseline: "closed.jsonl", metric: "unified", b: 3, c: 2, chi2: 0, p: 1, p_exact: 1, p_holm: 1 });
  });

  it("refuses outcomes that do not cover the gold", () => {
    expect(() => buildScoreReport({ split: "dev", outcomes: { track: "open", codes: new Uint8Array(5) }, gold })).toThrow();
    expect(() =>
      buildScoreReport({
        split: "dev",
        outcomes,
        gold,
        baselines: [{ name: "short", outcomes: { track: "open", codes: new Uint8Array(2) } }],
      }),
    ).toThrow();
  });
});

describe("scorePredictions, closed-world (sections 7, 8, 11)", () => {
  const gold = buildGold(
    [
      { id: "c1", qid: "Q1", collection: "Labor" },
      { id: "c2", qid: "Q3", collection: "Labor" },
      { id: "c3", qid: "Q1", collection: "Labor" },
      { id: "c4", qid: "Q3", collection: "Labor" },
      { id: "c5", qid: "Q1", collection: "Labor" },
    ],
    kb,
  );
  const predictions = new Map<string, string[]>([
    ["c1", ["Q1", "Q7"]], // rank 1, alias_hit@1 through the QID
    ["c2", ["Q2", "Q3"]], // rank 2; the top entity is named "USMC", an alias of Q3: alias_hit@1
    ["c3", ["Q7", "Q8", "Q9", "Q1"]], // rank 4
    ["c4", ["Q7"]], // not ranked
    ["c5", ["Q7", "Q8", "Q9", "Q10", "Q11", "Q12", "Q13", "Q14", "Q15", "Q1"]], // rank 10
  ]);
  const { report, outcomes } = scorePredictions({ track: "closed", split: "test", predictions, gold, kb });

  it("stores rank and alias_hit@1 per sample", () => {
    expect([...outcomes.codes]).toEqual([0x80 + 1, 0x80 + 2, 4, 0, 10]);
  });

  it("reports hit@k, mrr and alias_hit@1", () => {
    expect(report.track).toBe("closed");
    // ranks 1, 2, 4, none, 10; mrr = (1 + 1/2 + 1/4 + 0 + 1/10) / 5 = 1.85 / 5 = 0.37
    expect(report.metrics["hit@1"]).toBe(1 / 5);
    expect(report.metrics["hit@3"]).toBe(2 / 5);
    expect(report.metrics["hit@5"]).toBe(3 / 5);
    expect(report.metrics["hit@10"]).toBe(4 / 5);
    expect(report.metrics.mrr).toBeCloseTo(0.37, 15);
    expect(report.metrics["alias_hit@1"]).toBe(2 / 5);
  });

  it("breaks down by type", () => {
    // Place: c1 (1), c3 (4), c5 (10): mrr = (1 + 0.25 + 0.1) / 3 = 0.45
    const place = report.by_type.Place;
    expect(place.n).toBe(3);
    expect(place.metrics["hit@1"]).toBe(1 / 3);
    expect(place.metrics["hit@5"]).toBe(2 / 3);
    expect(place.metrics["hit@10"]).toBe(1);
    expect(place.metrics.mrr).toBeCloseTo(0.45, 15);
    // Organization: c2 (2, alias hit), c4 (none): mrr = 0.5 / 2
    const organization = report.by_type.Organization;
    expect(organization.metrics).toEqual({
      "hit@1": 0,
      "hit@3": 0.5,
      "hit@5": 0.5,
      "hit@10": 0.5,
      mrr: 0.25,
      "alias_hit@1": 0.5,
    });
    expect(report.by_type.Event.n).toBe(0);
    expect(report.by_type.Event.metrics.mrr).toBeNull();
  });
});

describe("by_collection keeps every collection name (section 8)", () => {
  it('reports a collection named "__proto__" like any other', () => {
    // Tiers by hand: s1 "pearl harbor" -> 1 (exact); s2 "" -> none; s3 "usmc" -> 2 (alias of Q3).
    const gold = buildGold(
      [
        { id: "s1", qid: "Q1", collection: "__proto__" },
        { id: "s2", qid: "Q6", collection: "__proto__" },
        { id: "s3", qid: "Q3", collection: "Labor" },
      ],
      kb,
    );
    const predictions = new Map([
      ["s1", "pearl harbor"],
      ["s2", ""],
      ["s3", "usmc"],
    ]);
    const { report } = scorePredictions({ track: "open", split: "dev", predictions, gold, kb });
    expect(Object.keys(report.by_collection)).toEqual(["Labor", "__proto__"]);
    expect(Object.getPrototypeOf(report.by_collection)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(report)).by_collection).toEqual({
      Labor: { n: 1, metrics: { exact: 0, alias: 1, contain: 1, jaccard: 1 } },
      ["__proto__"]: { n: 2, metrics: { exact: 0.5, alias: 0.5, contain: 0.5, jaccard: 0.5 } },
    });
  });
});

describe("buildScoreReport with intervals computed elsewhere (the scorer's bootstrap thread)", () => {
  const gold = buildGold(
    [
      { id: "s1", qid: "Q1", collection: "Veterans" },
      { id: "s2", qid: "Q3", collection: "Veterans" },
      { id: "s3", qid: "Q4", collection: "Labor" },
      { id: "s4", qid: "Q5", collection: "Labor" },
    ],
    kb,
  );
  const outcomes = { track: "open" as const, codes: Uint8Array.from([1, 2, 0, 4]) };

  it("lists the whole split and each type with samples, each with its codes in gold order", () => {
    expect(bootstrapGroupsOf(gold, outcomes).map(([group, codes]) => [group, [...codes]])).toEqual([
      ["all", [1, 2, 0, 4]],
      ["Place", [1, 4]],
      ["Organization", [2]],
      ["Event", [0]],
    ]);
  });

  it("uses the intervals it is given for their groups and computes the rest", () => {
    const given: Interval[] = [[0.25, 0.5], [0.25, 0.5], [0.25, 0.5], [0.25, 0.5]];
    const report = buildScoreReport({ split: "dev", gold, outcomes, resamples: 50, intervals: new Map([["Place", given]]) });
    const computed = buildScoreReport({ split: "dev", gold, outcomes, resamples: 50 });
    expect(report.by_type.Place.ci95).toEqual({ exact: [0.25, 0.5], alias: [0.25, 0.5], contain: [0.25, 0.5], jaccard: [0.25, 0.5] });
    expect({ ...report, by_type: { ...report.by_type, Place: computed.by_type.Place } }).toEqual(computed);
  });
});
