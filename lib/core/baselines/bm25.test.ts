import { describe, expect, it } from "vitest";
import { createBm25Index, inverseDocumentFrequency, search, searchTerms } from "./bm25";

/*
 * The tiny corpus of these tests, computed by hand (k1 = 1.2, b = 0.75):
 *
 *   d1 "apple banana"         |D| = 2
 *   d2 "apple cherry cherry"  |D| = 3
 *   d3 "date"                 |D| = 1
 *
 *   N = 3, avgdl = 6 / 3 = 2
 *   idf(apple)  = ln(1 + (3 - 2 + 0.5) / (2 + 0.5)) = ln(1.6)
 *   idf(cherry) = ln(1 + (3 - 1 + 0.5) / (1 + 0.5)) = ln(8 / 3)
 *
 *   length norm d1 = 1 - 0.75 + 0.75 * 2 / 2 = 1
 *   length norm d2 = 1 - 0.75 + 0.75 * 3 / 2 = 1.375, so k1 * norm = 1.65
 *   length norm d3 = 1 - 0.75 + 0.75 * 1 / 2 = 0.625, so k1 * norm = 0.75
 *
 *   "apple"  in d1: ln(1.6) * 1 * 2.2 / (1 + 1.2)  = ln(1.6)
 *   "apple"  in d2: ln(1.6) * 1 * 2.2 / (1 + 1.65) = ln(1.6) * 2.2 / 2.65
 *   "cherry" in d2: ln(8/3) * 2 * 2.2 / (2 + 1.65) = ln(8/3) * 4.4 / 3.65
 *   "date"   in d3: ln(8/3) * 1 * 2.2 / (1 + 0.75) = ln(8/3) * 2.2 / 1.75
 *
 *   "cherry apple date": d2 = 0.3902 + 1.1823 = 1.5725 > d3 = 1.2330 > d1 = 0.4700
 */
const TINY = [
  { id: "d1", text: "apple banana" },
  { id: "d2", text: "apple cherry cherry" },
  { id: "d3", text: "date" },
];
const APPLE_IN_D1 = Math.log(1.6);
const APPLE_IN_D2 = (Math.log(1.6) * 2.2) / 2.65;
const CHERRY_IN_D2 = (Math.log(8 / 3) * 4.4) / 3.65;
const DATE_IN_D3 = (Math.log(8 / 3) * 2.2) / 1.75;

describe("inverseDocumentFrequency", () => {
  it("is ln(1 + (N - df + 0.5) / (df + 0.5))", () => {
    expect(inverseDocumentFrequency(3, 2)).toBeCloseTo(Math.log(1.6), 12);
    expect(inverseDocumentFrequency(3, 1)).toBeCloseTo(Math.log(8 / 3), 12);
  });

  it("stays positive for a term in every document", () => {
    // ln(1 + 0.5 / 3.5) = ln(8 / 7)
    expect(inverseDocumentFrequency(3, 3)).toBeCloseTo(Math.log(8 / 7), 12);
  });
});

describe("createBm25Index", () => {
  it("records document lengths and the average length", () => {
    const index = createBm25Index(TINY);
    expect(Array.from(index.documentLengths)).toEqual([2, 3, 1]);
    expect(index.averageDocumentLength).toBe(2);
    expect(index.postings.get("cherry")?.documents).toEqual(Int32Array.from([1]));
  });

  it("accepts an empty corpus and documents without terms", () => {
    expect(search(createBm25Index([]), "apple", 5)).toEqual([]);
    expect(search(createBm25Index([{ id: "x", text: "the of and" }]), "the", 5)).toEqual([]);
  });
});

describe("search", () => {
  it("scores a one-term query by hand", () => {
    const hits = search(createBm25Index(TINY), "apple", 10);
    expect(hits.map((hit) => hit.id)).toEqual(["d1", "d2"]);
    expect(hits[0]?.score).toBeCloseTo(APPLE_IN_D1, 12);
    expect(hits[1]?.score).toBeCloseTo(APPLE_IN_D2, 12);
  });

  it("sums the terms of a query", () => {
    const hits = search(createBm25Index(TINY), "Cherry? Apple!", 10);
    expect(hits.map((hit) => hit.id)).toEqual(["d2", "d1"]);
    expect(hits[0]?.score).toBeCloseTo(CHERRY_IN_D2 + APPLE_IN_D2, 12);
    expect(hits[1]?.score).toBeCloseTo(APPLE_IN_D1, 12);
  });

  it("counts a repeated query term once per occurrence", () => {
    const hits = search(createBm25Index(TINY), "apple apple", 1);
    expect(hits).toHaveLength(1);
    expect(hits[0]?.score).toBeCloseTo(2 * APPLE_IN_D1, 12);
  });

  it("returns only documents that share a term, and nothing for k = 0", () => {
    const index = createBm25Index(TINY);
    expect(search(index, "zebra", 10)).toEqual([]);
    expect(search(index, "apple", 0)).toEqual([]);
  });

  it("ranks a three-term query by hand", () => {
    const hits = search(createBm25Index(TINY), "cherry apple date", 3);
    expect(hits.map((hit) => hit.id)).toEqual(["d2", "d3", "d1"]);
    expect(hits[0]?.score).toBeCloseTo(CHERRY_IN_D2 + APPLE_IN_D2, 12);
    expect(hits[1]?.score).toBeCloseTo(DATE_IN_D3, 12);
  });

  it("gives the same answer when asked again (the scratch buffer is reset)", () => {
    const index = createBm25Index(TINY);
    const first = search(index, "cherry apple date", 3);
    expect(search(index, "cherry apple date", 3)).toEqual(first);
    const dateOnly = searchTerms(index, ["date"], 3);
    expect(dateOnly.map((hit) => hit.id)).toEqual(["d3"]);
    expect(dateOnly[0]?.score).toBeCloseTo(DATE_IN_D3, 12);
  });

  it("breaks ties by document order, also when k cuts through the tie", () => {
    const docs = [
      { id: "a", text: "river" },
      { id: "b", text: "mountain" },
      { id: "c", text: "river" },
      { id: "d", text: "river" },
      { id: "e", text: "river" },
      { id: "f", text: "river" },
    ];
    const index = createBm25Index(docs);
    expect(search(index, "river", 10).map((hit) => hit.id)).toEqual(["a", "c", "d", "e", "f"]);
    expect(search(index, "river", 2).map((hit) => hit.id)).toEqual(["a", "c"]);
  });

  it("breaks ties by document order, not by which query term matched first", () => {
    // alpha and beta both have df = 2 and every document has one term, so all
    // four matches score idf * 2.2 / 2.2 alike; "alpha" comes first in the query.
    const docs = [
      { id: "d0", text: "beta" },
      { id: "d1", text: "alpha" },
      { id: "d2", text: "gamma" },
      { id: "d3", text: "alpha" },
      { id: "d4", text: "beta" },
    ];
    const index = createBm25Index(docs);
    expect(search(index, "alpha beta", 2).map((hit) => hit.id)).toEqual(["d0", "d1"]);
    expect(search(index, "alpha beta", 10).map((hit) => hit.id)).toEqual(["d0", "d1", "d3", "d4"]);
  });

  it("keeps the k best of many matches in order (heap path)", () => {
    // Document i is "w" repeated n_i times, so tf = |D| = n_i. Its score
    // idf * n * 2.2 / (n + 1.2 * (0.25 + 0.75 * n / avgdl)) grows with n:
    // the ranking is n descending, then document order.
    const repeats = Array.from({ length: 50 }, (_, i) => ((i * 7) % 10) + 1);
    const docs = repeats.map((n, i) => ({ id: `d${i}`, text: Array.from({ length: n }, () => "w").join(" ") }));
    // n = 10 at i = 7, 17, 27, 37, 47; n = 9 at i = 4, 14, ...
    expect(search(createBm25Index(docs), "w", 7).map((hit) => hit.id)).toEqual(["d7", "d17", "d27", "d37", "d47", "d4", "d14"]);
  });
});
