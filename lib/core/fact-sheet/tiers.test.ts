import { describe, expect, it } from "vitest";
import { FACT_SHEET_TEMPLATE } from "@/lib/core/fact-sheet/template";
import { emptyFactSheet } from "@/lib/core/fact-sheet/schema";
import { countDifferingOutcomes } from "../integrity/count-differing-outcomes";
import { isDocumented, scoredEntryTier } from "./tiers";

describe("provenance tiers", () => {
  it("derives documented from a complete sheet with code and configuration linked", () => {
    expect(isDocumented(FACT_SHEET_TEMPLATE)).toBe(true);
    expect(scoredEntryTier({ factSheet: FACT_SHEET_TEMPLATE, isReproduced: false })).toBe("documented");
    expect(scoredEntryTier({ factSheet: { ...FACT_SHEET_TEMPLATE, codeUrl: null }, isReproduced: false })).toBe("scored");
    expect(scoredEntryTier({ factSheet: { ...FACT_SHEET_TEMPLATE, configuration: { text: "", url: null } }, isReproduced: false })).toBe("scored");
    expect(scoredEntryTier({ factSheet: { ...FACT_SHEET_TEMPLATE, compute: "" }, isReproduced: false })).toBe("scored");
    expect(scoredEntryTier({ factSheet: emptyFactSheet("x"), isReproduced: false })).toBe("scored");
    expect(scoredEntryTier({ factSheet: null, isReproduced: false })).toBe("scored");
  });

  it("puts a recorded reproduction above everything derived", () => {
    expect(scoredEntryTier({ factSheet: null, isReproduced: true })).toBe("reproduced");
    expect(scoredEntryTier({ factSheet: FACT_SHEET_TEMPLATE, isReproduced: true })).toBe("reproduced");
  });
});

describe("countDifferingOutcomes", () => {
  it("counts positions whose code differs", () => {
    const entry = { track: "open" as const, codes: new Uint8Array([1, 2, 0, 4, 4]) };
    expect(countDifferingOutcomes(entry, { track: "open", codes: new Uint8Array([1, 2, 0, 4, 4]) })).toBe(0);
    expect(countDifferingOutcomes(entry, { track: "open", codes: new Uint8Array([1, 3, 0, 4, 0]) })).toBe(2);
  });

  it("refuses outcomes of another track or gold", () => {
    const entry = { track: "open" as const, codes: new Uint8Array([1, 2]) };
    expect(() => countDifferingOutcomes(entry, { track: "closed", codes: new Uint8Array([1, 2]) })).toThrow(/different tracks/);
    expect(() => countDifferingOutcomes(entry, { track: "open", codes: new Uint8Array([1]) })).toThrow(/different gold/);
  });
});
