import { describe, expect, it } from "vitest";
import { describeVisibility, type VisibilityInput } from "./describe-visibility";

const base: VisibilityInput = { split: "test", isBaseline: false, baselineLabel: null, publication: "PRIVATE" };

describe("describeVisibility", () => {
  it("a baseline is public under its label, whatever its publication status", () => {
    for (const publication of ["PRIVATE", "PENDING", "PUBLISHED"] as const) {
      expect(describeVisibility({ ...base, isBaseline: true, baselineLabel: "Community ranker", publication })).toEqual({
        isPublic: true,
        text: 'Public as the baseline "Community ranker": anyone sees its scores, and entries are compared with it.',
      });
    }
    expect(describeVisibility({ ...base, split: "dev", isBaseline: true, baselineLabel: "BM25" }).isPublic).toBe(true);
  });

  it("a published test entry is public; pending, private, rejected and hidden ones are not", () => {
    expect(describeVisibility({ ...base, publication: "PUBLISHED" })).toEqual({ isPublic: true, text: "Public: published on the leaderboard." });
    expect(describeVisibility({ ...base, publication: "PENDING" })).toEqual({
      isPublic: false,
      text: "Private until a maintainer approves your publication request; until then only you and the maintainers see it.",
    });
    expect(describeVisibility(base)).toEqual({ isPublic: false, text: "Private: only you and the maintainers see it." });
    expect(describeVisibility({ ...base, publication: "REJECTED" }).text).toBe("Private: the publication request was rejected; only you and the maintainers see it.");
    expect(describeVisibility({ ...base, publication: "HIDDEN" }).text).toBe("Private: a maintainer hid it from the leaderboard; only you and the maintainers see it.");
  });

  it("a dev submission that is not a baseline is private", () => {
    expect(describeVisibility({ ...base, split: "dev" })).toEqual({ isPublic: false, text: "Private: only you and the maintainers see it. Dev submissions are never published." });
  });

  it("speaks to a maintainer about the owner, not to them as the owner", () => {
    expect(describeVisibility({ ...base, publication: "PENDING" }, "maintainer").text).toBe(
      "Private until a maintainer approves the owner's publication request; until then only its owner and the maintainers see it.",
    );
    expect(describeVisibility(base, "maintainer").text).toBe("Private: only its owner and the maintainers see it.");
  });

  it("says who hid an entry, and that its owner may show it again", () => {
    const hidden = { ...base, publication: "HIDDEN" as const, hiddenByOwner: true };
    expect(describeVisibility(hidden).text).toBe("Private: you hid it from the leaderboard (you can show it again); only you and the maintainers see it.");
    expect(describeVisibility(hidden, "maintainer").text).toBe("Private: its owner hid it from the leaderboard; only its owner and the maintainers see it.");
  });
});
