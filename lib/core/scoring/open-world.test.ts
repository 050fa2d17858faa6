import { describe, expect, it } from "vitest";
import { meetsContainment, meetsJaccard, openWorldTier, prepareOpenGold, tierOf } from "./open-world";

describe("open-world tiers (protocol section 6)", () => {
  const marines = prepareOpenGold("United States Marine Corps", ["USMC", "Marines"]);

  describe("tier 1, exact", () => {
    it("matches after case folding and white space", () => {
      expect(tierOf("  PEARL \t HARBOR ", "Pearl Harbor", [])).toBe(1);
    });

    it("matches through NFKC (full-width letters, ideographic space)", () => {
      expect(tierOf("ＰＥＡＲＬ\u3000ＨＡＲＢＯＲ", "Pearl Harbor", [])).toBe(1);
    });

    it("wins over alias when the alias equals the name", () => {
      expect(tierOf("pearl harbor", "Pearl Harbor", ["Pearl Harbor"])).toBe(1);
    });
  });

  describe("tier 2, alias", () => {
    it("matches an alias after normalisation", () => {
      expect(openWorldTier("usmc", marines)).toBe(2);
      expect(openWorldTier(" MARINES ", marines)).toBe(2);
    });

    it("matches an alias written with a ligature", () => {
      expect(tierOf("\uFB01fth army", "United States Fifth Army", ["Fifth Army"])).toBe(2);
    });
  });

  describe("tier 3, containment", () => {
    it("matches a prediction inside the gold name", () => {
      expect(tierOf("Pearl Harbor", "Attack on Pearl Harbor", [])).toBe(3);
    });

    it("matches the gold name inside the prediction", () => {
      expect(tierOf("the attack on Pearl Harbor in 1941", "Attack on Pearl Harbor", [])).toBe(3);
    });

    it("matches with an article before the gold name (gold run inside the prediction)", () => {
      // seq(p) = [the, attack, on, pearl, harbor]; seq(g) = [attack, on, pearl, harbor] is its run at 1.
      expect(tierOf("the Attack on Pearl Harbor", "Attack on Pearl Harbor", [])).toBe(3);
    });

    it("is whole-token since v1.1: sub-word pieces no longer meet it", () => {
      // seq("e") = [e]: no token of [attack, on, pearl, harbor] is "e"; jaccard 0/5: none.
      expect(tierOf("e", "Attack on Pearl Harbor", [])).toBeNull();
      // [par] vs [paris]: not a token of it; jaccard 0/2.
      expect(tierOf("par", "Paris", [])).toBeNull();
      // "arl" was a substring of "pearl harbor" under 1.0.x.
      expect(tierOf("arl", "Pearl Harbor", [])).toBeNull();
      // [apollo, 1] vs [apollo, 11]: "1" != "11"; jaccard {apollo} / {apollo, 1, 11} = 1/3 < 1/2.
      expect(tierOf("Apollo 1", "Apollo 11", [])).toBeNull();
      // The other way round too: [apollo, 11] is not a run of [apollo, 1].
      expect(tierOf("Apollo 11", "Apollo 1", [])).toBeNull();
    });

    it("needs the tokens contiguous and in order", () => {
      // [attack, pearl] is not a run of [attack, on, pearl, harbor] (gap);
      // jaccard {attack, pearl} / 4 tokens = 2/4: tier 4, not 3.
      expect(tierOf("attack pearl", "Attack on Pearl Harbor", [])).toBe(4);
      // [harbor, pearl]: reversed order is no run; jaccard {pearl, harbor} = 2/2: tier 4.
      expect(tierOf("Harbor Pearl", "Pearl Harbor", [])).toBe(4);
    });

    it("splits on punctuation, so a hyphenated name is contained", () => {
      // norm("Pearl-Harbor") != norm("Pearl Harbor"), but seq = [pearl, harbor] on both sides.
      expect(tierOf("Pearl-Harbor", "Pearl Harbor", [])).toBe(3);
      expect(tierOf("Pearl.Harbor!", "Attack on Pearl Harbor", [])).toBe(3);
    });

    it("keeps repeated tokens", () => {
      // [new, york, new, york]: [york, new] is its run at 1; [new, new] is not a run.
      const song = prepareOpenGold("New York, New York", []);
      expect(openWorldTier("York New", song)).toBe(3);
      // [new, new]: no run; jaccard {new} / {new, york} = 1/2: tier 4.
      expect(openWorldTier("new new", song)).toBe(4);
      // [new, york, new, york, new] contains [new, york, new, york] at 0.
      expect(openWorldTier("new york new york new", song)).toBe(3);
      // [bora] is a run of [bora, bora]; [bora, bora, bora] contains [bora, bora].
      expect(tierOf("Bora", "Bora Bora", [])).toBe(3);
      expect(tierOf("bora bora bora", "Bora Bora", [])).toBe(3);
    });

    it("never matches a prediction with no tokens", () => {
      // seq("—!?") = []: not tier 3; tokens empty, jaccard 0/2.
      expect(tierOf("—!?", "Pearl Harbor", [])).toBeNull();
      // A gold name with no tokens contains nothing (guard), even a prediction equal after split.
      expect(tierOf("!!", "—", [])).toBeNull();
    });

    it("works on accented and CJK tokens", () => {
      // NFKC and lower case: seq = [são, paulo]; "paulo" is a run.
      expect(tierOf("PAULO", "São Paulo", [])).toBe(3);
      // Decomposed "Sa\u0303o" becomes "são" under NFKC: [são] is a run.
      expect(tierOf("Sa\u0303o", "São Paulo", [])).toBe(3);
      // "sao" is not "são": no run; jaccard {sao} vs {são, paulo} = 0.
      expect(tierOf("Sao", "São Paulo", [])).toBeNull();
      // A CJK name without spaces is one token: [東京都] vs [東京]: no run either way.
      expect(tierOf("東京", "東京都", [])).toBeNull();
      // [東京, タワー]: "東京" is a run.
      expect(tierOf("東京", "東京 タワー", [])).toBe(3);
    });

    it("uses the gold name only, not the aliases", () => {
      // "Marine" is inside "united states marine corps" (the name): tier 3.
      expect(openWorldTier("Marine", marines)).toBe(3);
      // "usm" is inside the alias "usmc" only; tokens {usm} vs name tokens share nothing: no tier.
      expect(openWorldTier("usm", marines)).toBeNull();
    });
  });

  describe("meetsContainment on token sequences", () => {
    it("takes runs either way and refuses empty sides", () => {
      expect(meetsContainment(["b", "c"], ["a", "b", "c", "d"])).toBe(true);
      expect(meetsContainment(["a", "b", "c", "d"], ["c", "d"])).toBe(true);
      expect(meetsContainment(["b", "d"], ["a", "b", "c", "d"])).toBe(false);
      expect(meetsContainment(["a", "b"], ["a", "b"])).toBe(true);
      expect(meetsContainment([], ["a"])).toBe(false);
      expect(meetsContainment(["a"], [])).toBe(false);
      expect(meetsContainment([], [])).toBe(false);
    });

    it("backtracks over a partial match with repeats", () => {
      // [a, a, b] in [a, a, a, b]: the run starts at 1 after a failed start at 0.
      expect(meetsContainment(["a", "a", "b"], ["a", "a", "a", "b"])).toBe(true);
    });
  });

  describe("tier 4, jaccard", () => {
    it("matches at exactly one half", () => {
      // tokens {york, city, council} vs {new, york, city}: shared 2, union 3 + 3 - 2 = 4, 2/4 = 0.5.
      // No containment: neither "york city council" nor "new york city" contains the other.
      expect(tierOf("York City Council", "New York City", [])).toBe(4);
      // {canadian, air, force, reserve, squadron} vs {royal, canadian, air, force}: 3 / (5 + 4 - 3) = 3/6.
      expect(tierOf("Canadian Air Force Reserve Squadron", "Royal Canadian Air Force", [])).toBe(4);
    });

    it("does not match just below one half", () => {
      // {york, city, hall, council} vs {new, york, city}: 2 / (4 + 3 - 2) = 2/5 = 0.4.
      expect(tierOf("York City Hall Council", "New York City", [])).toBeNull();
      // {canadian, air, force, reserve, squadron, two} vs {royal, canadian, air, force}: 3/7 < 0.5.
      expect(tierOf("Canadian Air Force Reserve Squadron Two", "Royal Canadian Air Force", [])).toBeNull();
    });

    it("ignores token order and punctuation", () => {
      // {pearl, harbor, attack} vs {attack, on, pearl, harbor}: 3/4.
      expect(tierOf("Pearl-Harbor attack", "Attack on Pearl Harbor", [])).toBe(4);
    });

    it("never matches an empty union", () => {
      // Neither side has a token; "?" is not "—" and neither contains the other.
      expect(tierOf("?", "—", [])).toBeNull();
      expect(meetsJaccard(new Set(), new Set())).toBe(false);
    });

    it("compares sets directly", () => {
      expect(meetsJaccard(new Set(["a", "b"]), new Set(["a", "c"]))).toBe(false); // 1/3
      expect(meetsJaccard(new Set(["a"]), new Set(["a", "c"]))).toBe(true); // 1/2
    });
  });

  describe("no tier", () => {
    it("scores an empty or white-space-only prediction wrong", () => {
      expect(tierOf("", "Pearl Harbor", [])).toBeNull();
      expect(tierOf(" \t\n ", "Pearl Harbor", [""])).toBeNull();
    });

    it("scores an unrelated prediction wrong", () => {
      expect(tierOf("Battle of Midway", "Attack on Pearl Harbor", [])).toBeNull();
    });
  });
});
