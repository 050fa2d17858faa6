import { describe, expect, it } from "vitest";
import { norm, tokens } from "./normalize";

describe("norm (protocol section 5)", () => {
  it("lower-cases, trims and collapses white-space runs, tabs and newlines included", () => {
    expect(norm("  Attack   on\tPearl\n\r Harbor  ")).toBe("attack on pearl harbor");
  });

  it("applies NFKC before lower-casing: ligatures, full-width letters, ideographic space", () => {
    // U+FB01 "ﬁ" decomposes to "fi" under NFKC.
    expect(norm("\uFB01nal Solution")).toBe("final solution");
    // Full-width "ＵＳＡ" and U+3000 (ideographic space) become ASCII "usa" and a space.
    expect(norm("ＵＳＡ\u3000Today")).toBe("usa today");
    // U+216B ROMAN NUMERAL TWELVE is "XII" under NFKC, then lower case.
    expect(norm("Louis \u216B")).toBe("louis xii");
  });

  it("treats a no-break space as white space", () => {
    expect(norm("New\u00A0\u00A0York")).toBe("new york");
  });

  it("composes a letter and a combining accent", () => {
    // "e" + U+0301 COMBINING ACUTE composes to U+00E9 under NFKC.
    expect(norm("Cafe\u0301")).toBe("caf\u00E9");
  });

  it("maps an all-white-space string to the empty string", () => {
    expect(norm(" \t \n ")).toBe("");
  });
});

describe("tokens (protocol section 5)", () => {
  it("splits on everything that is not a letter, digit or combining mark", () => {
    expect(tokens("U.S. Army")).toEqual(new Set(["u", "s", "army"]));
    expect(tokens("B-52 Stratofortress")).toEqual(new Set(["b", "52", "stratofortress"]));
    expect(tokens("Saint-Exupéry's")).toEqual(new Set(["saint", "exupéry", "s"]));
  });

  it("is a set: repeated words count once", () => {
    expect(tokens("New York, New York")).toEqual(new Set(["new", "york"]));
  });

  it("keeps combining marks inside a token", () => {
    // "İ".toLowerCase() is "i" + U+0307 COMBINING DOT ABOVE, a mark (\p{M}).
    expect(tokens("İstanbul")).toEqual(new Set(["i\u0307stanbul"]));
  });

  it("is empty for punctuation only", () => {
    expect(tokens("— ?!")).toEqual(new Set());
  });
});
