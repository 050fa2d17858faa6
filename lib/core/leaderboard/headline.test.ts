import { describe, expect, it } from "vitest";
import { closeRanksView } from "@/testing/leaderboard/test-support";
import { viewHeadline } from "./headline";

describe("viewHeadline", () => {
  it("names the view's best system and its one verdict against the runner-up", () => {
    // close-a and close-b differ in one sample: McNemar's exact p = 1, no verdict (test-support.ts).
    const headline = viewHeadline(closeRanksView());
    expect(headline?.bestId).toBe("close-a");
    expect(headline?.text).toMatch(/^Open-world: best is close-a \(Alias \d+\.\d\), not significantly different from the runner-up close-b \(p ≥ 0\.05\)\.$/);
  });
});
