import { describe, expect, it } from "vitest";
import { linearAxis, niceStep, timeAxis } from "./axis-ticks";

describe("niceStep", () => {
  it("takes 1, 2 or 5 times a power of ten", () => {
    expect(niceStep(100, 5)).toBe(20);
    expect(niceStep(100, 10)).toBe(10);
    expect(niceStep(37, 5)).toBe(10);
    expect(niceStep(8, 5)).toBe(2);
    expect(niceStep(0.9, 4)).toBe(0.5);
  });
});

describe("linearAxis", () => {
  it("ends on a tick, every gap the same (no short last gap)", () => {
    // 31.2 to 78.9 in at most 5 gaps: step 10, from 30 to 80.
    expect(linearAxis(31.2, 78.9, 5)).toEqual({ domain: [30, 80], ticks: [30, 40, 50, 60, 70, 80], step: 10 });
  });

  it("keeps a percent axis inside 0 to 100 and still regular", () => {
    // 2 to 99.5 in at most 5 gaps: step 20, 0 to 100.
    expect(linearAxis(2, 99.5, 5, [0, 100])).toEqual({ domain: [0, 100], ticks: [0, 20, 40, 60, 80, 100], step: 20 });
  });

  it("a narrow range gets a small step without floating-point noise", () => {
    expect(linearAxis(0.31, 0.38, 4).ticks).toEqual([0.3, 0.32, 0.34, 0.36, 0.38]);
  });

  it("one value is widened to a range around it", () => {
    expect(linearAxis(40, 40, 4)).toEqual({ domain: [39, 41], ticks: [39, 39.5, 40, 40.5, 41], step: 0.5 });
  });
});

describe("timeAxis", () => {
  const at = (text: string) => Date.parse(text);

  it("runs seconds apart get ticks a minute apart, each a different minute", () => {
    const axis = timeAxis(at("2026-12-03T13:43:05Z"), at("2026-12-03T13:43:50Z"), 5);
    expect(axis.step).toBe(60_000);
    expect(axis.ticks).toEqual([at("2026-12-03T13:43:00Z"), at("2026-12-03T13:44:00Z")]);
  });

  it("runs over three days get day ticks at UTC midnight", () => {
    const axis = timeAxis(at("2026-12-01T10:00:00Z"), at("2026-12-03T20:00:00Z"), 4);
    expect(axis.step).toBe(86_400_000);
    expect(axis.ticks).toEqual([at("2026-12-01T00:00:00Z"), at("2026-12-02T00:00:00Z"), at("2026-12-03T00:00:00Z"), at("2026-12-04T00:00:00Z")]);
  });

  it("a 50-minute span in at most 5 gaps takes 15-minute steps", () => {
    const axis = timeAxis(at("2026-12-03T13:05:00Z"), at("2026-12-03T13:55:00Z"), 5);
    expect(axis.step).toBe(15 * 60_000);
    expect(axis.domain).toEqual([at("2026-12-03T13:00:00Z"), at("2026-12-03T14:00:00Z")]);
  });
});
