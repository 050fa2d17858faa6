import { describe, expect, it } from "vitest";
import type { ErrorClassSummary } from "@/lib/scoring/error-taxonomy";
import { discloseErrorClasses } from "./disclose-error-classes";

const zeroRow = { Place: 0, Organization: 0, Person: 0, Event: 0, Work: 0, "Military Unit": 0, Other: 0, none: 0 };
const summary: ErrorClassSummary = {
  track: "closed",
  n: 3,
  counts: { correct: 1, alias_twin: 0, in_top_10: 2, wrong_type_at_1: 0, same_type_at_1: 0 },
  byType: {
    Place: { n: 3, counts: { correct: 1, alias_twin: 0, in_top_10: 2, wrong_type_at_1: 0, same_type_at_1: 0 } },
    Organization: { n: 0, counts: {} },
    Person: { n: 0, counts: {} },
    Event: { n: 0, counts: {} },
    Work: { n: 0, counts: {} },
    "Military Unit": { n: 0, counts: {} },
    Other: { n: 0, counts: {} },
  },
  confusion: { Place: { ...zeroRow, Place: 3 }, Organization: zeroRow, Person: zeroRow, Event: zeroRow, Work: zeroRow, "Military Unit": zeroRow, Other: zeroRow },
};

describe("discloseErrorClasses (protocol section 12)", () => {
  it("dev: counts, per type and the confusion matrix", () => {
    const shown = discloseErrorClasses("s", summary, { split: "dev", isOwner: true, isMaintainer: false, isPublished: false });
    expect(shown).toMatchObject({ kind: "dev", n: 3, counts: summary.counts, confusion: summary.confusion });
  });

  it("test before publication: nothing, for the owner and a maintainer alike", () => {
    for (const asker of [
      { isOwner: true, isMaintainer: false },
      { isOwner: false, isMaintainer: true },
    ]) {
      expect(discloseErrorClasses("s", summary, { split: "test", isPublished: false, ...asker })).toBeNull();
    }
  });

  it("test after publication: the owner gets overall shares rounded to 0.1 point, nothing per type; anyone else nothing", () => {
    const shown = discloseErrorClasses("s", summary, { split: "test", isOwner: true, isMaintainer: false, isPublished: true });
    // 1/3 = 0.3333... -> 0.333; 2/3 = 0.6666... -> 0.667.
    expect(shown).toEqual({
      kind: "test",
      submissionId: "s",
      track: "closed",
      n: 3,
      classes: ["correct", "alias_twin", "in_top_10", "wrong_type_at_1", "same_type_at_1"],
      shares: { correct: 0.333, alias_twin: 0, in_top_10: 0.667, wrong_type_at_1: 0, same_type_at_1: 0 },
    });
    expect(JSON.stringify(shown)).not.toMatch(/byType|confusion|counts/);
    expect(discloseErrorClasses("s", summary, { split: "test", isOwner: false, isMaintainer: false, isPublished: true })).toBeNull();
  });
});
