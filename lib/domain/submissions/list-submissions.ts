import "server-only";
import { perturbationOf } from "@/lib/domain/scoring/public-disclosure";
import { db } from "@/lib/platform/db";
import { discloseHeadline, disclosureLevelFor } from "@/lib/core/disclosure/disclose";
import { isPublicEntry } from "@/lib/domain/scoring/public-entry-rule";

export type SubmissionSummary = {
  id: string;
  originalName: string;
  split: string;
  track: string;
  status: string;
  publication: string;
  /** The owner's primary entry of its track (the leaderboard shows it by default). */
  isPrimary: boolean;
  createdAt: string;
  primary: number | null;
  failureKind: string | null;
  /** The owner's note on the run (My runs). */
  note: string;
};

/** A participant's own submissions, newest first. */
export async function listSubmissionsOf(userId: string, take = 200): Promise<SubmissionSummary[]> {
  const rows = await db.submission.findMany({
    where: { userId },
    orderBy: { createdAt: "desc" },
    take,
    include: { score: { select: { primary: true, unified: true, feedbackPrimary: true, rankingReport: true, goldSha256: true } }, release: { select: { name: true } } },
  });
  return rows.map((row) => ({
    id: row.id,
    originalName: row.originalName,
    split: row.split,
    track: row.track,
    status: row.status,
    publication: row.publication,
    isPrimary: row.isPrimary,
    createdAt: row.createdAt.toISOString(),
    // Section 12: the feedback slice's value before publication, the ranking slice's after.
    primary: row.score
      ? discloseHeadline(
          row.score,
          "primary",
          disclosureLevelFor({ split: row.split, isPublic: isPublicEntry(row), isMaintainer: false }),
          row.split,
          perturbationOf(row.release.name, row.score.goldSha256, row.id),
        )
      : null,
    failureKind: row.failureKind,
    note: row.note,
  }));
}
