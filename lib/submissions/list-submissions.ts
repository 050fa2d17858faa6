import "server-only";
import { db } from "@/lib/db";
import { discloseHeadline, disclosureLevelFor } from "@/lib/disclosure/disclose";
import { isPublicEntry } from "@/lib/scores/public-entry-rule";

export type SubmissionSummary = {
  id: string;
  originalName: string;
  split: string;
  track: string;
  status: string;
  publication: string;
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
    include: { score: { select: { primary: true } } },
  });
  return rows.map((row) => ({
    id: row.id,
    originalName: row.originalName,
    split: row.split,
    track: row.track,
    status: row.status,
    publication: row.publication,
    createdAt: row.createdAt.toISOString(),
    primary: row.score ? discloseHeadline(row.score.primary, disclosureLevelFor({ split: row.split, isPublic: isPublicEntry(row), isMaintainer: false })) : null,
    failureKind: row.failureKind,
    note: row.note,
  }));
}
