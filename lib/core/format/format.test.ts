import { describe, expect, it } from "vitest";
import { describeGroupRule, formatFeedbackShare } from "./disclosure-text";
import { formatBytes } from "./bytes";
import { formatDate, formatDateTime, formatIsoDateTime, formatTimeOfDay, formatTimeTick } from "./dates";
import { formatMetricName } from "./metric-labels";
import { formatCount, formatDecimal, formatPercent, formatPercentInterval, formatTick } from "./numbers";

describe("lib/core/format", () => {
  it("sizes in B, KiB and MiB, a whole number of units without a decimal", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(12_800)).toBe("12.5 KiB");
    expect(formatBytes(2048)).toBe("2 KiB");
    expect(formatBytes(64 * 1024 * 1024)).toBe("64 MiB");
    expect(formatBytes(1_572_864 + 1)).toBe("1.5 MiB");
  });

  it("dates for people in UTC, one way: the day, and the moment to the minute; ISO 8601 for APIs and files", () => {
    expect(formatDateTime(new Date(Date.UTC(2026, 11, 1, 22, 15, 3, 456)))).toBe("2026-12-01 22:15 UTC");
    expect(formatDateTime("2026-01-02T03:04:05.000Z")).toBe("2026-01-02 03:04 UTC");
    expect(formatDateTime("2026-01-02T05:04:05+02:00")).toBe("2026-01-02 03:04 UTC");
    expect(formatDateTime(null)).toBe("–");
    expect(formatDate("2026-01-02T23:59:59.000Z")).toBe("2026-01-02");
    expect(formatDate(null)).toBe("–");
    expect(formatIsoDateTime(new Date(Date.UTC(2026, 11, 1, 22, 15, 3, 456)))).toBe("2026-12-01T22:15:03.456Z");
    expect(formatIsoDateTime(null)).toBeNull();
  });

  it("counts, percentages, decimals and metric labels", () => {
    expect(formatCount(4633)).toBe("4,633");
    expect(formatPercent(0.38912)).toBe("38.9");
    expect(formatPercent(null)).toBe("–");
    expect(formatPercentInterval([0.375, 0.4031], 2)).toBe("[37.50, 40.31]");
    expect(formatDecimal(0.47512)).toBe("0.475");
    expect(formatMetricName("alias")).toBe("Alias");
    expect(formatMetricName("no_such_metric")).toBe("no_such_metric");
  });

  it("a time tick is its UTC day, with the minute under it when ticks are less than a day apart", () => {
    const time = Date.UTC(2026, 11, 3, 13, 45, 0);
    expect(formatTimeOfDay(time)).toBe("13:45Z");
    expect(formatTimeTick(time, 15 * 60_000)).toEqual(["2026-12-03", "13:45Z"]);
    expect(formatTimeTick(Date.UTC(2026, 11, 3), 86_400_000)).toEqual(["2026-12-03"]);
  });

  it("an axis tick has the decimals its step needs", () => {
    expect(formatTick(40, 20)).toBe("40");
    expect(formatTick(37.5, 0.5)).toBe("37.5");
    expect(formatTick(0.34, 0.02)).toBe("0.34");
    expect(formatTick(2000, 500)).toBe("2,000");
    expect(formatTick(-5, 5)).toBe("-5");
  });
});

describe("describeGroupRule and formatFeedbackShare (protocol section 12)", () => {
  it("states a release's public group policy with its own numbers", () => {
    expect(describeGroupRule({ minGroupN: 201, coarseBelowN: 2000 })).toBe(
      "Public per-type and per-collection rates are rounded to 1 point in groups of fewer than 2,000 ranking samples (0.1 point from there); a group with fewer than 201 samples shows its size only, and no group shows an MRR.",
    );
    expect(describeGroupRule({ minGroupN: 5, coarseBelowN: 1000 })).toContain("fewer than 1,000 ranking samples");
  });

  it("writes feedback_fraction as a percentage of the test split", () => {
    expect(formatFeedbackShare(0.25)).toBe("25%");
    expect(formatFeedbackShare(0.125)).toBe("12.5%");
  });
});
