"use client";

import { useRouter } from "next/navigation";
import { ReviewPanel } from "@/components/submissions/review-panel";
import type { SubmissionView } from "@/lib/domain/submissions/get-submission-view";

/** The review actions inside the queue: after each one the queue reloads (the request may leave it). */
export function QueueReviewPanel({ view }: { view: SubmissionView }) {
  const router = useRouter();
  return <ReviewPanel view={view} onDone={() => router.refresh()} />;
}
