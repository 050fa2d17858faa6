import { describe, expect, it } from "vitest";
import { holmAdjust } from "./holm";

describe("Holm adjustment (protocol section 9)", () => {
  it("steps down and keeps the adjusted values monotone, in input order", () => {
    // Sorted: 0.005 (x4) -> 0.02; 0.01 (x3) -> 0.03; 0.03 (x2) -> 0.06; 0.04 (x1) -> 0.04, raised to 0.06.
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    const expected = [0.03, 0.06, 0.06, 0.02];
    expected.forEach((value, i) => expect(adjusted[i]).toBeCloseTo(value, 15));
  });

  it("caps at 1", () => {
    // 0.5 * 2 = 1, 0.6 * 1 = 0.6 raised to 1.
    expect(holmAdjust([0.6, 0.5])).toEqual([1, 1]);
    expect(holmAdjust([0.9, 0.8, 0.7])).toEqual([1, 1, 1]);
  });

  it("leaves a single p-value alone and an empty family empty", () => {
    expect(holmAdjust([0.2])).toEqual([0.2]);
    expect(holmAdjust([])).toEqual([]);
  });

  it("handles ties", () => {
    // Both 0.01: 2 * 0.01 = 0.02, then 1 * 0.01 raised to 0.02.
    expect(holmAdjust([0.01, 0.01])).toEqual([0.02, 0.02]);
  });

  it("keeps tiny p-values tiny", () => {
    // 3 * 2e-34 = 6e-34; 2 * 5e-10 = 1e-9; 1 * 0.2.
    const adjusted = holmAdjust([5e-10, 2e-34, 0.2]);
    expect(adjusted[0]).toBeCloseTo(1e-9, 20);
    expect(adjusted[1]).toBeCloseTo(6e-34, 45);
    expect(adjusted[2]).toBeCloseTo(0.2, 15);
  });
});
