import { describe, expect, it } from "vitest";
import { PLATFORM_SCORING_VERSION, SCORER_VERSION } from "@/lib/core/scoring/score-report";
import { isScoreStale, releaseGoldOf } from "./score-staleness";

describe("score staleness (protocol section 10)", () => {
  it("reads a split's gold from the release and tells a current score from a stale one", () => {
    const gold = { train: "aaa", dev: "bbb", test: "ccc" };
    expect(releaseGoldOf(gold, "test")).toBe("ccc");
    expect(releaseGoldOf(gold, "other")).toBeNull();
    expect(releaseGoldOf("not an object", "test")).toBeNull();
    // A stored score records the platform's scoring version (1.3.0: the report plus its entity-keyed slices' reports).
    expect(isScoreStale({ scorerVersion: PLATFORM_SCORING_VERSION, goldSha256: "ccc" }, "ccc")).toBe(false);
    expect(isScoreStale({ scorerVersion: "1.0.0", goldSha256: "ccc" }, "ccc")).toBe(true);
    // Protocol v1.2: every test score made before the slices (scorer 1.1.0) is stale until re-scored.
    expect(SCORER_VERSION).toBe("1.1.0");
    expect(PLATFORM_SCORING_VERSION).toBe("1.3.0");
    expect(isScoreStale({ scorerVersion: SCORER_VERSION, goldSha256: "ccc" }, "ccc")).toBe(true);
    expect(isScoreStale({ scorerVersion: PLATFORM_SCORING_VERSION, goldSha256: "old" }, "ccc")).toBe(true);
    expect(isScoreStale({ scorerVersion: PLATFORM_SCORING_VERSION, goldSha256: "ccc" }, null)).toBe(true);
  });
});
