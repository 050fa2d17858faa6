import "server-only";
import { requireMaintainer, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import type { PublicationStatus, Track } from "@/lib/platform/generated/prisma";
import { findAccountEntries, findBudgetAccounts, findReleaseFamily } from "@/lib/domain/submissions/find-account-entries";
import { findCloseFiles, type CloseFile } from "@/lib/domain/publication/find-close-files";
import { getSubmissionView, type SubmissionView } from "@/lib/domain/submissions/get-submission-view";
import { DIGEST_ROW_SELECT } from "@/lib/domain/scoring/load-answer-digests";

/** One of the owner's other test submissions, so a reviewer sees what else they have asked for or published. */
type OwnerEntry = {
  id: string;
  system: string;
  track: "open" | "closed";
  status: string;
  publication: string;
  isPrimary: boolean;
  primary: number | null;
  createdAt: string;
};

/** The account's entries on the release name (protocol §12), per track, against `max_entries_per_account`. */
type AccountEntries = {
  releaseName: string;
  max: number;
  byTrack: { track: Track; entries: { id: string; system: string; publication: PublicationStatus; releaseVersion: string }[] }[];
};

export type ReviewRequest = {
  view: SubmissionView;
  /** The requesting account (its row of the disclosure ledger). */
  ownerId: string;
  otherEntries: OwnerEntry[];
  entries: AccountEntries;
  /** Test files of other accounts with the same answers in all but max(25, 1%) samples. */
  closeFiles: CloseFile[];
  closeFilesRequired: number;
  closeFilesUncompared: number;
};

const TRACKS: readonly Track[] = ["open", "closed"];

const MAX_REQUESTS = 50;
const MAX_OTHER_ENTRIES = 20;

/**
 * The pending publication requests, oldest first, each with what a reviewer
 * needs on one screen: the metadata and method, the scores with intervals, the
 * comparisons with the baselines, the probe flags (all from the maintainer's
 * view of the submission), the owner's other test entries, the owner's
 * published and pending entries against the cap, and other accounts' files
 * that are near-copies of this one (protocol §12).
 */
export async function listReviewRequests(actor: Actor): Promise<ReviewRequest[]> {
  requireMaintainer(actor);
  const pending = await db.submission.findMany({
    where: { publication: "PENDING" },
    orderBy: { requestedAt: "asc" },
    take: MAX_REQUESTS,
    select: { ...DIGEST_ROW_SELECT, userId: true, release: { select: { maxEntriesPerAccount: true } } },
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
  const guards = await Promise.all(pending.map((row) => guardFactsOf(row)));
  return pending.map((row, index) => ({
    // getSubmissionView answers for every id it is given (maintainer), in order.
    view: views[index] as SubmissionView,
    ownerId: row.userId,
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
    ...(guards[index] as Awaited<ReturnType<typeof guardFactsOf>>),
  }));
}

type PendingRow = Parameters<typeof findCloseFiles>[0] & { release: { maxEntriesPerAccount: number } };

/** The §12 facts of one request: the account's entries per track, and the other accounts' near-copies. */
async function guardFactsOf(row: PendingRow): Promise<Pick<ReviewRequest, "entries" | "closeFiles" | "closeFilesRequired" | "closeFilesUncompared">> {
  const family = await findReleaseFamily(row.releaseId);
  const budget = await findBudgetAccounts(row.userId);
  const [entries, close] = await Promise.all([findAccountEntries({ userIds: budget, family }), findCloseFiles(row, family)]);
  return {
    entries: {
      releaseName: family.name,
      max: row.release.maxEntriesPerAccount,
      byTrack: TRACKS.map((track) => ({
        track,
        entries: entries
          .filter((entry) => entry.track === track)
          .map((entry) => ({ id: entry.id, system: entry.systemName ?? entry.originalName, publication: entry.publication, releaseVersion: family.versionOf.get(entry.releaseId) ?? "" })),
      })),
    },
    closeFiles: close.files,
    closeFilesRequired: close.required,
    closeFilesUncompared: close.uncompared,
  };
}
