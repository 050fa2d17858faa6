import { describe, expect, it } from "vitest";
import { goldRank, isAliasHitAt1, prepareClosedGold } from "./closed-world";
import { norm } from "./normalize";

describe("closed-world matching (protocol section 7)", () => {
  it("ranks the gold QID 1-based, 0 when absent", () => {
    expect(goldRank(["Q1", "Q2", "Q3"], "Q1")).toBe(1);
    expect(goldRank(["Q1", "Q2", "Q3"], "Q3")).toBe(3);
    expect(goldRank(["Q1", "Q2", "Q3"], "Q4")).toBe(0);
  });

  describe("alias_hit@1", () => {
    const kbNames = new Map([
      ["Q100", "United States Marine Corps"],
      ["Q200", "USMC"],
      ["Q300", "united  states marine CORPS"],
      ["Q400", "Marine Corps"],
    ]);
    const nameOf = (qid: string) => {
      const name = kbNames.get(qid);
      return name === undefined ? undefined : norm(name);
    };
    const gold = prepareClosedGold("Q100", "United States Marine Corps", ["USMC", "Marines"]);

    it("counts the gold QID at the top", () => {
      expect(isAliasHitAt1(["Q100", "Q200"], gold, nameOf)).toBe(true);
    });

    it("counts a top entity whose name is an alias of the gold entity", () => {
      expect(isAliasHitAt1(["Q200", "Q100"], gold, nameOf)).toBe(true);
    });

    it("counts a different QID with the same name after normalisation", () => {
      expect(isAliasHitAt1(["Q300"], gold, nameOf)).toBe(true);
    });

    it("does not count a top entity that only shares aliases or a part of the name", () => {
      expect(isAliasHitAt1(["Q400", "Q100"], gold, nameOf)).toBe(false);
    });

    it("looks at the top entity only", () => {
      expect(isAliasHitAt1(["Q999", "Q100"], gold, nameOf)).toBe(false);
      expect(isAliasHitAt1([], gold, nameOf)).toBe(false);
    });
  });
});
