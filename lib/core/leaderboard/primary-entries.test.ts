import { describe, expect, it } from "vitest";
import { selectPrimaryEntries } from "./primary-entries";

type Entry = { id: string; isBaseline: boolean; track: "open" | "closed"; ownerId?: string; isPrimary?: boolean };

const entry = (id: string, ownerId: string, track: "open" | "closed", isPrimary = false): Entry => ({ id, isBaseline: false, track, ownerId, isPrimary });
const ids = (entries: Entry[]) => entries.map((item) => item.id);

describe("selectPrimaryEntries", () => {
  it("keeps only the primary entry of an owner who chose one, per track", () => {
    const entries = [entry("a1", "ann", "open"), entry("a2", "ann", "open", true), entry("a3", "ann", "closed"), entry("a4", "ann", "closed")];
    expect(ids(selectPrimaryEntries(entries))).toEqual(["a2", "a3", "a4"]);
  });

  it("keeps every entry of owners who chose none, and every baseline", () => {
    const baseline: Entry = { id: "bm25", isBaseline: true, track: "open", ownerId: "system", isPrimary: false };
    const entries = [entry("b1", "bob", "open"), entry("b2", "bob", "open"), baseline, entry("c1", "cat", "open", true), entry("c2", "cat", "open")];
    expect(ids(selectPrimaryEntries(entries))).toEqual(["b1", "b2", "bm25", "c1"]);
  });

  it("keeps entries whose owner is unknown", () => {
    expect(ids(selectPrimaryEntries([{ id: "x", isBaseline: false, track: "open" }]))).toEqual(["x"]);
  });
});
