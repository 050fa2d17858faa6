import "server-only";
import { requireMaintainer, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { getSubmissionView, type SubmissionView } from "@/lib/submissions/get-submission-view";

/** One of the owner's other test submissions, so a reviewer sees what else they have asked for or published. */
export type OwnerEntry = {
  id: string;
  system: string;
  track: "open" | "closed";
  status: string;
  publication: string;
  isPrimary: boolean;
  primary: number | null;
  createdAt: string;
};

export type ReviewRequest = { view: SubmissionView; otherEntries: OwnerEntry[] };

const MAX_REQUESTS = 50;
const MAX_OTHER_ENTRIES = 20;

/**
 * The pending publication requests, oldest first, each with what a reviewer
 * needs on one screen: the metadata and method, the scores with intervals, the
 * comparisons with the baselines, the probe flags (all from the maintainer's
 * view of the submission) and the owner's other test entries.
 */
export async function listReviewRequests(actor: Actor): Promise<ReviewRequest[]> {
  requireMaintainer(actor);
  const pending = await db.submission.findMany({
    where: { publication: "PENDING" },
    orderBy: { requestedAt: "asc" },
    take: MAX_REQUESTS,
    select: { id: true, userId: true },
  });
  if (pending.length === 0) return [];
  const owners = [...new Set(pending.map((row) => row.userId))];
  const [views, others] = await Promise.all([
    Promise.all(pending.map((row) => getSubmissionView(actor, row.id))),
    db.submission.findMany({
      where: { userId: { in: owners }, split: "test" },
      orderBy: { createdAt: "desc" },
      select: {
        id: true,
        userId: true,
        systemName: true,
        originalName: true,
        track: true,
        status: true,
        publication: true,
        isPrimary: true,
        createdAt: true,
        score: { select: { primary: true } },
      },
    }),
  ]);
  return pending.map((row, index) => ({
    // getSubmissionView answers for every id it is given (maintainer), in order.
    view: views[index] as SubmissionView,
    otherEntries: others
      .filter((other) => other.userId === row.userId && other.id !== row.id)
      .slice(0, MAX_OTHER_ENTRIES)
      .map((other) => ({
        id: other.id,
        system: other.systemName ?? other.originalName,
        track: other.track,
        status: other.status,
        publication: other.publication,
        isPrimary: other.isPrimary,
        primary: other.score?.primary ?? null,
        createdAt: other.createdAt.toISOString(),
      })),
  }));
}
