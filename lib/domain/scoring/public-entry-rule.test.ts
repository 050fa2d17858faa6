import { describe, expect, it } from "vitest";
import { isPublicEntry, PUBLIC_ENTRY_WHERE, publicEntrySql } from "./public-entry-rule";

describe("the public-entry rule", () => {
  it("a baseline of any split, or a published test entry, and nothing else", () => {
    expect(isPublicEntry({ isBaseline: true, publication: "PRIVATE", split: "dev" })).toBe(true);
    expect(isPublicEntry({ isBaseline: false, publication: "PUBLISHED", split: "test" })).toBe(true);
    expect(isPublicEntry({ isBaseline: false, publication: "PUBLISHED", split: "dev" })).toBe(false);
    expect(isPublicEntry({ isBaseline: false, publication: "PENDING", split: "test" })).toBe(false);
    expect(isPublicEntry({ isBaseline: false, publication: "HIDDEN", split: "test" })).toBe(false);
  });

  it("gives the same rule as a Prisma where and as SQL", () => {
    expect(PUBLIC_ENTRY_WHERE).toEqual({ OR: [{ isBaseline: true }, { publication: "PUBLISHED", split: "test" }] });
    expect(publicEntrySql("s")).toBe(`((s."isBaseline" = TRUE) OR (s."publication" = 'PUBLISHED' AND s."split" = 'test'))`);
  });
});
