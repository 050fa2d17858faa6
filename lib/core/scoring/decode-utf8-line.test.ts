import { describe, expect, it } from "vitest";
import { decodeUtf8Line } from "./decode-utf8-line";

const bytes = (...values: number[]) => Uint8Array.from(values);

describe("decodeUtf8Line (protocol section 4: never repaired)", () => {
  it("decodes valid UTF-8, multi-byte characters included", () => {
    // "é" is C3 A9; "東" is E6 9D B1; U+1F600 is F0 9F 98 80.
    expect(decodeUtf8Line(bytes(0x61, 0xc3, 0xa9, 0xe6, 0x9d, 0xb1, 0xf0, 0x9f, 0x98, 0x80))).toBe("aé東\u{1F600}");
    expect(decodeUtf8Line(bytes())).toBe("");
  });

  it("refuses invalid sequences instead of substituting U+FFFD", () => {
    expect(decodeUtf8Line(bytes(0xc3, 0x28))).toBeNull(); // lead byte, then "("
    expect(decodeUtf8Line(bytes(0x61, 0xc3))).toBeNull(); // truncated at the end
    expect(decodeUtf8Line(bytes(0xff))).toBeNull(); // never valid
    expect(decodeUtf8Line(bytes(0xc0, 0xaf))).toBeNull(); // overlong "/"
    expect(decodeUtf8Line(bytes(0xed, 0xa0, 0xbd))).toBeNull(); // an encoded surrogate (CESU-8)
  });

  it("is not left in a bad state by an invalid line", () => {
    expect(decodeUtf8Line(bytes(0xe6, 0x9d))).toBeNull();
    expect(decodeUtf8Line(bytes(0xb1))).toBeNull();
    expect(decodeUtf8Line(bytes(0x6f, 0x6b))).toBe("ok");
  });

  it("keeps a byte-order mark for the caller to judge", () => {
    expect(decodeUtf8Line(bytes(0xef, 0xbb, 0xbf, 0x78))).toBe("\uFEFFx");
  });
});
