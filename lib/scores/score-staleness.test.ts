import { describe, expect, it } from "vitest";
import { SCORER_VERSION } from "@/lib/scoring/score-report";
import { isScoreStale, releaseGoldOf } from "./score-staleness";

describe("score staleness (protocol section 10)", () => {
  it("reads a split's gold from the release and tells a current score from a stale one", () => {
    const gold = { train: "aaa", dev: "bbb", test: "ccc" };
    expect(releaseGoldOf(gold, "test")).toBe("ccc");
    expect(releaseGoldOf(gold, "other")).toBeNull();
    expect(releaseGoldOf("not an object", "test")).toBeNull();
    expect(isScoreStale({ scorerVersion: SCORER_VERSION, goldSha256: "ccc" }, "ccc")).toBe(false);
    expect(isScoreStale({ scorerVersion: "1.0.0", goldSha256: "ccc" }, "ccc")).toBe(true);
    expect(isScoreStale({ scorerVersion: SCORER_VERSION, goldSha256: "old" }, "ccc")).toBe(true);
    expect(isScoreStale({ scorerVersion: SCORER_VERSION, goldSha256: "ccc" }, null)).toBe(true);
  });
});
