import { describe, expect, it } from "vitest";
import { meetsJaccard, openWorldTier, prepareOpenGold, tierOf } from "./open-world";

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

    it("is a plain substring test, not a word test", () => {
      // "arl" is a substring of "pearl harbor": the protocol's rule, applied literally.
      expect(tierOf("arl", "Pearl Harbor", [])).toBe(3);
    });

    it("uses the gold name only, not the aliases", () => {
      // "Marine" is inside "united states marine corps" (the name): tier 3.
      expect(openWorldTier("Marine", marines)).toBe(3);
      // "usm" is inside the alias "usmc" only; tokens {usm} vs name tokens share nothing: no tier.
      expect(openWorldTier("usm", marines)).toBeNull();
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
