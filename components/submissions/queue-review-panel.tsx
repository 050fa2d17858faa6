"use client";

import { useRouter } from "next/navigation";
import { ReviewPanel } from "@/components/submissions/review-panel";
import type { SubmissionView } from "@/lib/domain/submissions/get-submission-view";
import { isQueueLeavingAction, reviewDoneHref, type ReviewAction } from "@/lib/core/submissions/review-done";

/**
 * The review actions inside the queue. A decision takes the request out of the queue, card and all: the page
 * reloads with the decision's result at its top, in focus, with a link to the entry (app/admin/review/page.tsx).
 * Other actions reload the queue in place, the result staying in the card.
 */
export function QueueReviewPanel({ view }: { view: SubmissionView }) {
  const router = useRouter();
  const onDone = (action: ReviewAction) => {
    if (isQueueLeavingAction(action)) router.replace(reviewDoneHref(action, view.id));
    else router.refresh();
  };
  return <ReviewPanel view={view} onDone={onDone} />;
}
