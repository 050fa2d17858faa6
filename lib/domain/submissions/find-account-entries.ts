import "server-only";
import { db } from "@/lib/platform/db";
import type { Prisma, PublicationStatus, Track } from "@/lib/platform/generated/prisma";

/**
 * Protocol §12: an account's entries on a release name are its test
 * submissions that are published, pending or hidden, on any version of the
 * release. They count against `max_entries_per_account` (per track): a
 * withdrawn request frees its place, a hidden entry does not, and a rejected
 * one was never public. Accounts of one budget group share the cap
 * (findBudgetAccounts).
 */
const ENTRY_PUBLICATIONS = ["PENDING", "PUBLISHED", "HIDDEN"] as const satisfies readonly PublicationStatus[];

/**
 * Protocol §12: what a publication request is compared with is wider than
 * the entries: every test file of the account that ever had a publication
 * request, whatever happened to it since (published, pending, hidden,
 * rejected or withdrawn), or a participant could be refused, withdraw, and
 * try again against a clean history. Every state but PRIVATE came through a
 * request; a PRIVATE file had one when it was withdrawn, which keeps its
 * `requestedAt` (withdraw-publication-request.ts), or when the guard refused
 * it (a PublicationRefusal row: v1.3 keeps refused requests too).
 */
export const EVER_REQUESTED = {
  OR: [{ publication: { not: "PRIVATE" } }, { requestedAt: { not: null } }, { refusals: { some: {} } }],
} as const satisfies Prisma.SubmissionWhereInput;

/**
 * Protocol §12: approved accounts a maintainer linked as one person or lab
 * share one entries budget. The accounts whose entries count against
 * `userId`'s budget: its budget group's members, or the account alone.
 */
export async function findBudgetAccounts(userId: string, client: Prisma.TransactionClient = db): Promise<string[]> {
  const user = await client.user.findUnique({ where: { id: userId }, select: { budgetGroupId: true } });
  if (!user?.budgetGroupId) return [userId];
  const members = await client.user.findMany({ where: { budgetGroupId: user.budgetGroupId }, select: { id: true }, orderBy: { createdAt: "asc" } });
  return members.map((member) => member.id);
}

export type ReleaseFamily = { name: string; releaseIds: string[]; versionOf: ReadonlyMap<string, string> };

/** Every imported version of the release's name. */
export async function findReleaseFamily(releaseId: string, client: Prisma.TransactionClient = db): Promise<ReleaseFamily> {
  const { name } = await client.datasetRelease.findUniqueOrThrow({ where: { id: releaseId }, select: { name: true } });
  const versions = await client.datasetRelease.findMany({ where: { name }, select: { id: true, version: true } });
  return { name, releaseIds: versions.map((release) => release.id), versionOf: new Map(versions.map((release) => [release.id, release.version])) };
}

export type AccountEntry = {
  id: string;
  userId: string;
  track: Track;
  publication: PublicationStatus;
  releaseId: string;
  systemName: string | null;
  originalName: string;
  requestedAt: Date | null;
  createdAt: Date;
};

/** The entries of the accounts (one, or a budget group's) on the release family, oldest first; one track, or both when `track` is omitted. */
export async function findAccountEntries(
  query: { userIds: readonly string[]; family: ReleaseFamily; track?: Track; exceptId?: string },
  client: Prisma.TransactionClient = db,
): Promise<AccountEntry[]> {
  return client.submission.findMany({
    where: {
      userId: { in: [...query.userIds] },
      split: "test",
      releaseId: { in: query.family.releaseIds },
      publication: { in: [...ENTRY_PUBLICATIONS] },
      ...(query.track !== undefined ? { track: query.track } : {}),
      ...(query.exceptId !== undefined ? { id: { not: query.exceptId } } : {}),
    },
    orderBy: { createdAt: "asc" },
    select: { id: true, userId: true, track: true, publication: true, releaseId: true, systemName: true, originalName: true, requestedAt: true, createdAt: true },
  });
}
