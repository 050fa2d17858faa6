import { describe, expect, it } from "vitest";
import { createLeakageMatcher, findLeakedTerm, normalizeForLeakage } from "@/lib/core/dataset/find-leakage";

describe("findLeakedTerm (whole-word, case-insensitive)", () => {
  it("does not match a name inside a longer word", () => {
    expect(findLeakedTerm("I studied at Stanford for two years.", ["Ford"])).toBeUndefined();
    expect(findLeakedTerm("We were not afforded any rights.", ["Ford"])).toBeUndefined();
    expect(findLeakedTerm("The Fords lived next door.", ["Ford"])).toBeUndefined();
    expect(findLeakedTerm("Fordham was far away.", ["Ford"])).toBeUndefined();
  });

  it("matches the name case-insensitively next to punctuation", () => {
    expect(findLeakedTerm("My father worked at ford.", ["Ford"])).toBe("Ford");
    expect(findLeakedTerm("FORD hired him in 1936", ["Ford"])).toBe("Ford");
    expect(findLeakedTerm("(Ford) was hiring", ["Ford"])).toBe("Ford");
    expect(findLeakedTerm("the Ford-owned plant", ["Ford"])).toBe("Ford");
  });

  it("reports the term as written in the KB, alias included", () => {
    expect(findLeakedTerm("I joined the motor company in 1940.", ["Ford", "Ford Motor Company"])).toBeUndefined();
    expect(findLeakedTerm("I joined ford motor company in 1940.", ["Ford", "Ford Motor Company"])).toBe("Ford Motor Company");
  });

  it("handles names with regex specials and trailing punctuation", () => {
    expect(findLeakedTerm("In 1942 I enlisted in the u.s. army.", ["U.S. Army"])).toBe("U.S. Army");
    expect(findLeakedTerm("the U.S. Army's training camp", ["U.S. Army"])).toBe("U.S. Army");
    // "." in the name is literal, not any character
    expect(findLeakedTerm("the uxsx army", ["U.S. Army"])).toBeUndefined();
    expect(findLeakedTerm("He went to the U.S.A. later.", ["U.S."])).toBeUndefined();
    expect(findLeakedTerm("He went to the U.S. later.", ["U.S."])).toBe("U.S.");
    expect(findLeakedTerm("we sang (what a day)+ all night", ["(What a Day)+"])).toBe("(What a Day)+");
    expect(findLeakedTerm('everyone played "long road blues" that year', ['"Long Road Blues"'])).toBe('"Long Road Blues"');
  });

  it("compares after NFKC and collapses white space", () => {
    // U+FB01 (fi ligature) and a no-break space normalise to "fi" and " "
    expect(findLeakedTerm("the \uFB01rst\u00A0national bank", ["First National Bank"])).toBe("First National Bank");
    expect(findLeakedTerm("Lake   Ardenhill was frozen", ["Lake Ardenhill"])).toBe("Lake Ardenhill");
  });

  it("uses Unicode letters, digits and marks as word characters", () => {
    expect(findLeakedTerm("Montréal was cold", ["Montr"])).toBeUndefined();
    expect(findLeakedTerm("the 442nd regiment", ["42nd"])).toBeUndefined();
    expect(findLeakedTerm("we met in Zürich in 1950", ["zürich"])).toBe("zürich");
    // "e" followed by a combining acute accent is a different word from "cafe"
    expect(findLeakedTerm("the cafe\u0301 on the corner", ["cafe"])).toBeUndefined();
    expect(findLeakedTerm("東京に住んでいた", ["東京"])).toBeUndefined();
    expect(findLeakedTerm("I lived in 東京 then", ["東京"])).toBe("東京");
  });

  it("ignores empty terms and finds a later whole-word occurrence after a partial one", () => {
    expect(findLeakedTerm("anything at all", ["", "   "])).toBeUndefined();
    expect(findLeakedTerm("Stanford, then Ford", ["Ford"])).toBe("Ford");
  });

  it("builds one matcher for many texts", () => {
    const matcher = createLeakageMatcher(["Rosa Parks", "Rosa Louise McCauley Parks"]);
    expect(matcher.find("A woman was arrested in Montgomery.")).toBeUndefined();
    expect(matcher.find("rosa parks was arrested")).toBe("Rosa Parks");
  });

  it("normalises like the protocol: NFKC then lower case", () => {
    expect(normalizeForLeakage("ＵＳ\tArmy")).toBe("us army");
  });
});
