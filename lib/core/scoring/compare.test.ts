import { describe, expect, it } from "vitest";
import { compareOutcomes, compareWithBaselines, comparisonMetricFor, correctnessVector, countDiscordant } from "./compare";

describe("paired comparisons (protocol section 9)", () => {
  it("uses the primary metric within a track and the unified one across", () => {
    expect(comparisonMetricFor("open", "open")).toBe("alias");
    expect(comparisonMetricFor("closed", "closed")).toBe("hit@1");
    expect(comparisonMetricFor("open", "closed")).toBe("unified");
    expect(comparisonMetricFor("closed", "open")).toBe("unified");
  });

  it("derives binary correctness from stored codes", () => {
    const open = { track: "open" as const, codes: Uint8Array.from([0, 1, 2, 3, 4]) };
    // alias = tiers 1 and 2
    expect([...correctnessVector(open, "alias")]).toEqual([0, 1, 1, 0, 0]);
    expect([...correctnessVector(open, "unified")]).toEqual([0, 1, 1, 0, 0]);
    // closed: 0 = unranked, 1 = rank 1, 129 = rank 1 + alias hit, 130 = rank 2 + alias hit, 3 = rank 3
    const closed = { track: "closed" as const, codes: Uint8Array.from([0, 1, 129, 130, 3]) };
    expect([...correctnessVector(closed, "hit@1")]).toEqual([0, 1, 1, 0, 0]);
    expect([...correctnessVector(closed, "unified")]).toEqual([0, 0, 1, 1, 0]);
    expect(() => correctnessVector(closed, "alias")).toThrow();
  });

  it("counts b (A right, B wrong) and c (A wrong, B right)", () => {
    expect(countDiscordant(Uint8Array.from([1, 1, 0, 0, 1]), Uint8Array.from([0, 1, 1, 0, 0]))).toEqual({ b: 2, c: 1 });
    expect(() => countDiscordant(new Uint8Array(2), new Uint8Array(3))).toThrow();
  });

  it("compares an open-world entry with a closed-world baseline on the unified metric", () => {
    const entry = { track: "open" as const, codes: Uint8Array.from([1, 2, 3, 0]) }; // right, right, wrong, wrong
    const baseline = { track: "closed" as const, codes: Uint8Array.from([0, 128, 129, 1]) }; // unified: 0, 1, 1, 0
    // b = sample 1; c = sample 3. chi2 = max(0, 0 - 1)^2 / 2 = 0, p = 1; p_exact = min(1, 2 * 3/4) = 1
    expect(compareOutcomes(entry, baseline)).toEqual({ metric: "unified", b: 1, c: 1, chi2: 0, p: 1, p_exact: 1 });
  });

  it("Holm-adjusts across the baselines and keeps their order", () => {
    const entry = { track: "open" as const, codes: Uint8Array.from([1, 1, 1, 0]) };
    const worse = { track: "open" as const, codes: Uint8Array.from([0, 0, 0, 0]) };
    const same = { track: "open" as const, codes: Uint8Array.from([1, 1, 1, 0]) };
    const rows = compareWithBaselines(entry, [
      { name: "same.jsonl", outcomes: same },
      { name: "worse.jsonl", outcomes: worse },
    ]);
    expect(rows.map((row) => row.baseline)).toEqual(["same.jsonl", "worse.jsonl"]);
    // worse: b = 3, c = 0, chi2 = (3 - 1)^2 / 3 = 4/3, p = erfc(sqrt(2/3)) = 0.248213078989923591,
    // p_exact = 2 * (1/8) = 0.25; Holm: 2 * 0.2482... = 0.4964..., then same's p = 1.
    const worseRow = rows[1];
    expect(worseRow?.chi2).toBeCloseTo(4 / 3, 14);
    expect(worseRow?.p).toBeCloseTo(0.248213078989923591, 14);
    expect(worseRow?.p_exact).toBeCloseTo(0.25, 15);
    expect(worseRow?.p_holm).toBeCloseTo(2 * 0.248213078989923591, 14);
    expect(rows[0]).toMatchObject({ b: 0, c: 0, chi2: 0, p: 1, p_exact: 1, p_holm: 1 });
  });

  it("counts identical baselines once in the Holm family (v1.1), each getting the first one's adjusted p", () => {
    const entry = { track: "open" as const, codes: Uint8Array.from([1, 1, 1, 0]) };
    const worse = { track: "open" as const, codes: Uint8Array.from([0, 0, 0, 0]) };
    const twin = { track: "open" as const, codes: Uint8Array.from([0, 0, 0, 4]) }; // tier 4 is not alias: the same alias vector
    const rows = compareWithBaselines(entry, [
      { name: "worse.jsonl", outcomes: worse },
      { name: "twin.jsonl", outcomes: twin },
    ]);
    // One distinct baseline: its p is not adjusted (m = 1), and the twin gets the same.
    expect(rows[0]?.p_holm).toBeCloseTo(0.248213078989923591, 14);
    expect(rows[1]?.p_holm).toBe(rows[0]?.p_holm);
    expect(rows[1]).toMatchObject({ baseline: "twin.jsonl", b: 3, c: 0 });
  });
});
