import { describe, expect, it } from "vitest";
import { STOP_WORDS, stemPlural, tokenize } from "./tokenize";

describe("tokenize", () => {
  it("lower-cases, splits on anything but letters, digits and marks, and drops stop words", () => {
    expect(tokenize("We drove to the Naval Base at 7:45, in 1941!")).toEqual(["drove", "naval", "base", "7", "45", "1941"]);
  });

  it("drops the fragments of possessives and contractions", () => {
    // "Harbor's" -> "harbor", "s"; "didn't" -> "didn", "t": all three fragments are stop words.
    expect(tokenize("Pearl Harbor's docks; we didn't go")).toEqual(["pearl", "harbor", "dock", "go"]);
  });

  it("applies NFKC before lower-casing", () => {
    // U+FB01 (fi ligature) and full-width letters fold to ASCII; "e" + U+0301 composes to "é".
    expect(tokenize("\uFB01re ＡＢＣ Cafe\u0301")).toEqual(["fire", "abc", "café"]);
  });

  it("splits on hyphens and keeps non-Latin letters", () => {
    expect(tokenize("Jean-Paul 東京 Zürich")).toEqual(["jean", "paul", "東京", "zürich"]);
  });

  it("returns no terms for punctuation or stop words only", () => {
    expect(tokenize("")).toEqual([]);
    expect(tokenize("... --- !!!")).toEqual([]);
    expect(tokenize("and the of it was")).toEqual([]);
  });

  it("keeps words that can belong to an entity name", () => {
    for (const word of ["one", "new", "war", "first", "united", "states"]) {
      expect(STOP_WORDS.has(word)).toBe(false);
    }
  });
});

describe("stemPlural (Harman's S stemmer)", () => {
  it.each([
    ["memories", "memory"],
    ["camps", "camp"],
    ["glasses", "glasse"],
    ["campus", "campus"],
    ["boss", "boss"],
    ["shoes", "shoes"],
    ["bus", "bus"],
    ["gas", "gas"],
    ["harbor", "harbor"],
  ])("%s -> %s", (word, stem) => {
    expect(stemPlural(word)).toBe(stem);
  });
});
