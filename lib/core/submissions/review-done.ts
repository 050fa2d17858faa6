import { z } from "zod";

/** A maintainer's actions on one submission (POST /api/admin/submissions/ID/review). */
export type ReviewAction = "approve" | "reject" | "hide" | "rescore" | "mark-baseline" | "unmark-baseline";

/** What each action did, in the words the maintainer reads after it. */
export const REVIEW_DONE_TEXT: Record<ReviewAction, string> = {
  approve: "Approved: the entry is on the public leaderboard.",
  reject: "Rejected: the owner sees your reason.",
  hide: "Hidden: the entry is off the public leaderboard.",
  rescore: "Queued for re-scoring.",
  "mark-baseline": "Marked as a baseline.",
  "unmark-baseline": "No longer a baseline.",
};

/** The decisions that take a request out of the review queue: the queue page says their result at its top. */
export const QUEUE_LEAVING_ACTIONS = ["approve", "reject", "hide", "mark-baseline"] as const satisfies readonly ReviewAction[];
export type QueueLeavingAction = (typeof QUEUE_LEAVING_ACTIONS)[number];

export function isQueueLeavingAction(action: ReviewAction): action is QueueLeavingAction {
  return (QUEUE_LEAVING_ACTIONS as readonly string[]).includes(action);
}

/** /admin/review?done=ACTION&submission=ID: the queue after a decision. */
export function reviewDoneHref(action: QueueLeavingAction, submissionId: string): string {
  return `/admin/review?${new URLSearchParams({ done: action, submission: submissionId })}`;
}

const reviewDoneSchema = z.object({ done: z.enum(QUEUE_LEAVING_ACTIONS), submission: z.string().regex(/^[a-z0-9]{1,64}$/) });

/** The decision the queue page was reloaded after, or null when its query names none (or is not one). */
export function parseReviewDone(params: Record<string, string | string[] | undefined>): { action: QueueLeavingAction; submissionId: string } | null {
  const parsed = reviewDoneSchema.safeParse({ done: params.done, submission: params.submission });
  return parsed.success ? { action: parsed.data.done, submissionId: parsed.data.submission } : null;
}
