import { describe, expect, it } from "vitest";
import { diffViewStates, type PublicViewState } from "./view-errata";

const BEFORE: PublicViewState = {
  open: {
    metric: "alias",
    rows: { a: { system: "Alpha", rank: "1-2", value: "41.0" }, b: { system: "Beta", rank: "1-2", value: "39.5" }, c: { system: "Gamma", rank: "3", value: "12.0" } },
    pairs: { "a+b": "no significant difference", "a+c": "better", "b+c": "better" },
  },
};

describe("diffViewStates", () => {
  it("names each changed verdict, rank interval and shown value, old and new, and keeps what is not shown now", () => {
    // After a gold fix: Alpha re-scored, Gamma still stale (not ranked, so absent).
    const after: PublicViewState = {
      open: { metric: "alias", rows: { a: { system: "Alpha", rank: "1", value: "45.2" }, b: { system: "Beta", rank: "2", value: "39.5" } }, pairs: { "a+b": "better" } },
    };
    const { errata, next } = diffViewStates(BEFORE, after);
    expect(errata.verdicts).toEqual([{ view: "open", entry: "a", system: "Alpha", other: "b", other_system: "Beta", before: "no significant difference", after: "better" }]);
    expect(errata.ranks).toEqual([
      { view: "open", entry: "a", system: "Alpha", before: "1-2", after: "1" },
      { view: "open", entry: "b", system: "Beta", before: "1-2", after: "2" },
    ]);
    expect(errata.values).toEqual([{ view: "open", entry: "a", system: "Alpha", metric: "alias", before: "41.0", after: "45.2" }]);
    expect(next.open?.rows.c).toEqual({ system: "Gamma", rank: "3", value: "12.0" });
    expect(next.open?.pairs).toEqual({ "a+b": "better", "a+c": "better", "b+c": "better" });
  });

  it("reports nothing for what was never shown before (a first state, a new entry)", () => {
    expect(diffViewStates(null, BEFORE).errata).toEqual({ ranks: [], values: [], verdicts: [] });
    const withNew: PublicViewState = { open: { ...(BEFORE.open as NonNullable<PublicViewState["open"]>), rows: { ...BEFORE.open?.rows, d: { system: "Delta", rank: "4", value: "1.0" } } } };
    expect(diffViewStates(BEFORE, withNew).errata).toEqual({ ranks: [], values: [], verdicts: [] });
  });
});
