import { describe, expect, it } from "vitest";
import { formatAge } from "./format-age";

const NOW = new Date("2026-12-01T12:00:00.000Z");

describe("formatAge", () => {
  it("counts seconds up to two minutes, then minutes, hours and days", () => {
    expect(formatAge("2026-12-01T12:00:00.000Z", NOW)).toBe("0 s");
    expect(formatAge("2026-12-01T11:58:01.000Z", NOW)).toBe("119 s");
    expect(formatAge("2026-12-01T11:58:00.000Z", NOW)).toBe("2 min");
    expect(formatAge("2026-12-01T10:01:00.000Z", NOW)).toBe("119 min");
    expect(formatAge("2026-12-01T10:00:00.000Z", NOW)).toBe("2 h");
    expect(formatAge("2026-11-29T12:00:00.000Z", NOW)).toBe("2 d");
  });

  it("shows a time in the future (clock skew between machines) as 0 s", () => {
    expect(formatAge("2026-12-01T12:00:05.000Z", NOW)).toBe("0 s");
  });
});
