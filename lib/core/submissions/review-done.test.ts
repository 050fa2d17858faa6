import { describe, expect, it } from "vitest";
import { isQueueLeavingAction, parseReviewDone, reviewDoneHref } from "@/lib/core/submissions/review-done";

describe("the review queue after a decision", () => {
  it("reads back the decision its own link names", () => {
    const href = reviewDoneHref("approve", "cmabc123");
    expect(href).toBe("/admin/review?done=approve&submission=cmabc123");
    expect(parseReviewDone(Object.fromEntries(new URL(href, "http://x").searchParams))).toEqual({ action: "approve", submissionId: "cmabc123" });
  });

  it("names no decision for a missing, unknown or repeated parameter", () => {
    expect(parseReviewDone({})).toBeNull();
    expect(parseReviewDone({ done: "rescore", submission: "cmabc123" })).toBeNull();
    expect(parseReviewDone({ done: "approve", submission: "../etc" })).toBeNull();
    expect(parseReviewDone({ done: ["approve", "reject"], submission: "cmabc123" })).toBeNull();
  });

  it("takes only decisions out of the queue: re-scoring and unmarking leave the request where it is", () => {
    expect(["approve", "reject", "hide", "mark-baseline"].every((action) => isQueueLeavingAction(action as never))).toBe(true);
    expect(isQueueLeavingAction("rescore")).toBe(false);
    expect(isQueueLeavingAction("unmark-baseline")).toBe(false);
  });
});
