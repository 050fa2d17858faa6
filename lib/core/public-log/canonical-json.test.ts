import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json";

describe("canonicalJson (RFC 8785 for integers and strings)", () => {
  it("sorts members by UTF-16 code units, at every depth, with no whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, "x"], c: null }, A: true })).toBe('{"A":true,"a":{"c":null,"d":[3,"x"]},"b":1}');
    // By code unit: U+000D < "1" < U+0080 < U+00F6 < U+20AC < U+D83D (the high surrogate of U+1F600).
    expect(canonicalJson({ "\u20ac": 1, "\r": 2, "1": 3, "\ud83d\ude00": 4, "\u0080": 5, "\u00f6": 6 })).toBe('{"\\r":2,"1":3,"\u0080":5,"\u00f6":6,"\u20ac":1,"\ud83d\ude00":4}');
  });

  it("escapes strings as RFC 8785 says: the two-character escapes, \\u00XX for other controls, the rest as is", () => {
    expect(canonicalJson("a\"b\\c\n\t\u0001\u001f\u007f é")).toBe('"a\\"b\\\\c\\n\\t\\u0001\\u001f\u007f é"');
  });

  it("writes integers plainly, -0 as 0, and refuses fractions and unsafe integers", () => {
    expect(canonicalJson([0, -0, -17, 9007199254740991])).toBe("[0,0,-17,9007199254740991]");
    expect(() => canonicalJson(0.5)).toThrow(/not a safe integer/);
    expect(() => canonicalJson(2 ** 60)).toThrow(/not a safe integer/);
  });
});
