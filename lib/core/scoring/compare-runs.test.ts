import { describe, expect, it } from "vitest";
import { compareRuns } from "./compare-runs";
import { encodeClosedOutcome } from "./outcome-codes";

describe("compareRuns", () => {
  it("open track: fixed and broken on the alias tier, McNemar with b = fixed and c = broken, per-type differences", () => {
    // Tiers old -> new: s0 1->1 same, s1 0->2 fixed, s2 2->3 broken, s3 3->1 fixed, s4 0->0 same, s5 4->2 fixed.
    const oldRun = { track: "open" as const, codes: Uint8Array.from([1, 0, 2, 3, 0, 4]) };
    const newRun = { track: "open" as const, codes: Uint8Array.from([1, 2, 3, 1, 0, 2]) };
    const types = ["Person", "Person", "Person", "Place", "Place", "Event"] as const;
    const result = compareRuns(oldRun, newRun, types);
    expect(result.metric).toBe("alias");
    expect(result.changes).toEqual(["same", "fixed", "broken", "fixed", "same", "fixed"]);
    expect(result.oldRate).toBeCloseTo(2 / 6, 12);
    expect(result.newRate).toBeCloseTo(4 / 6, 12);
    // b = 3, c = 1: chi2 = (|3 - 1| - 1)^2 / 4 = 0.25; exact p = 2 * P(X <= 1), X ~ Bin(4, 1/2) = 2 * 5/16 = 0.625.
    expect(result.mcnemar.b).toBe(3);
    expect(result.mcnemar.c).toBe(1);
    expect(result.mcnemar.chi2).toBeCloseTo(0.25, 12);
    expect(result.mcnemar.p_exact).toBeCloseTo(0.625, 12);
    const person = result.byType.find((row) => row.type === "Person");
    expect(person).toEqual({ type: "Person", n: 3, oldRate: 2 / 3, newRate: 2 / 3, fixed: 1, broken: 1 });
    expect(result.byType.find((row) => row.type === "Work")).toEqual({ type: "Work", n: 0, oldRate: null, newRate: null, fixed: 0, broken: 0 });
  });

  it("closed track: hit@1 decides, an alias hit alone does not", () => {
    const oldRun = { track: "closed" as const, codes: Uint8Array.from([encodeClosedOutcome(1, true), encodeClosedOutcome(2, true)]) };
    const newRun = { track: "closed" as const, codes: Uint8Array.from([encodeClosedOutcome(0, true), encodeClosedOutcome(1, true)]) };
    const result = compareRuns(oldRun, newRun, ["Place", "Place"]);
    expect(result.metric).toBe("hit@1");
    expect(result.changes).toEqual(["broken", "fixed"]);
    expect([result.mcnemar.b, result.mcnemar.c]).toEqual([1, 1]);
  });

  it("refuses runs of different tracks or lengths", () => {
    const open = { track: "open" as const, codes: Uint8Array.from([1]) };
    const closed = { track: "closed" as const, codes: Uint8Array.from([1]) };
    expect(() => compareRuns(open, closed, ["Place"])).toThrow(/open-world run with a closed-world/);
    expect(() => compareRuns(open, open, ["Place", "Place"])).toThrow(/cover 1 and 1 samples, the gold 2/);
  });
});
