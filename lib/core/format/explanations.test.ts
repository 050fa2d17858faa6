import { describe, expect, it } from "vitest";
import { roundingExplanation, sliceNExplanation } from "./explanations";

describe("explanations", () => {
  it("names the ranking slice's n and, with the test split's size, the feedback slice's", () => {
    expect(sliceNExplanation({ rankingN: 43, testSamples: 56 })).toContain("(here n = 43 of the 56 test samples; the other 13 are the feedback slice)");
    expect(sliceNExplanation({ rankingN: 43 })).toContain("ranking slice (here n = 43):");
    expect(sliceNExplanation()).toMatch(/^n is the size of the ranking slice: /);
  });

  it("states the release's group rule when given and the whole-point example", () => {
    const text = roundingExplanation({ minGroupN: 5, coarseBelowN: 1000 });
    expect(text).toContain("rounded to 1 point in groups of fewer than 1,000 ranking samples");
    expect(text).toContain("fewer than 5 samples shows its size only");
    expect(text).toContain("5 of 7 right reads 71, not 71.4 or 71.0");
  });
});
