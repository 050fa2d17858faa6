import { PERTURBATION } from "@/testing/disclosure/perturbation";
import { describe, expect, it } from "vitest";
import type { ErrorClassSummary } from "@/lib/core/scoring/error-taxonomy";
import { discloseErrorClasses, mayDiscloseErrorClasses } from "./disclose-error-classes";

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

// The ranking slice of that file: 2 of its 3 samples, one correct and one in the top 10.
const rankingSlice = { n: 2, counts: { correct: 1, alias_twin: 0, in_top_10: 1, wrong_type_at_1: 0, same_type_at_1: 0 } };
const CLOSED_CLASSES = ["correct", "alias_twin", "in_top_10", "wrong_type_at_1", "same_type_at_1"];

describe("discloseErrorClasses (protocol section 12)", () => {
  it("dev: counts, per type and the confusion matrix", () => {
    const shown = discloseErrorClasses("s", summary, null, { split: "dev", isOwner: true, isMaintainer: false, isPublished: false }, PERTURBATION);
    expect(shown).toMatchObject({ kind: "dev", n: 3, counts: summary.counts, confusion: summary.confusion });
  });

  it("test before publication: nothing for the owner", () => {
    const asker = { split: "test" as const, isOwner: true, isMaintainer: false, isPublished: false };
    expect(mayDiscloseErrorClasses(asker)).toBe(false);
    expect(discloseErrorClasses("s", summary, rankingSlice, asker, PERTURBATION)).toBeNull();
  });

  it("test after publication: the owner gets the ranking slice's shares rounded to 0.1 point, nothing per type; anyone else nothing", () => {
    const shown = discloseErrorClasses("s", summary, rankingSlice, { split: "test", isOwner: true, isMaintainer: false, isPublished: true }, PERTURBATION);
    // On the 2 ranking samples (1 correct, 1 in the top 10), each class count perturbed under entry-1/error/CLASS and
    // clamped to [0, 2]: 2, 0, 0, 1, 2 (Python's hmac, protocol v1.3 section 12); shares over their sum, 5, to 0.1 point.
    expect(shown).toEqual({
      kind: "test",
      submissionId: "s",
      track: "closed",
      slice: "ranking",
      n: 2,
      classes: CLOSED_CLASSES,
      shares: { correct: 0.4, alias_twin: 0, in_top_10: 0, wrong_type_at_1: 0.2, same_type_at_1: 0.4 },
    });
    expect(JSON.stringify(shown)).not.toMatch(/byType|confusion|counts/);
    expect(discloseErrorClasses("s", summary, rankingSlice, { split: "test", isOwner: false, isMaintainer: false, isPublished: true }, PERTURBATION)).toBeNull();
    // A row without the ranking slice's counts shows nothing rather than the whole split's.
    expect(discloseErrorClasses("s", summary, null, { split: "test", isOwner: true, isMaintainer: false, isPublished: true }, PERTURBATION)).toBeNull();
  });

  it("test, a maintainer: the whole split's shares unrounded, published or not", () => {
    for (const isPublished of [false, true]) {
      const shown = discloseErrorClasses("s", summary, rankingSlice, { split: "test", isOwner: false, isMaintainer: true, isPublished }, PERTURBATION);
      expect(shown).toEqual({
        kind: "test",
        submissionId: "s",
        track: "closed",
        slice: "whole",
        n: 3,
        classes: CLOSED_CLASSES,
        shares: { correct: 1 / 3, alias_twin: 0, in_top_10: 2 / 3, wrong_type_at_1: 0, same_type_at_1: 0 },
      });
    }
  });
});
