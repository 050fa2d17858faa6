import "server-only";
import { db } from "@/lib/platform/db";
import type { Prisma } from "@/lib/platform/generated/prisma";
import { PUBLIC_ENTRY_WHERE } from "@/lib/domain/scoring/public-entry-rule";
import { findReleaseFamily } from "@/lib/domain/submissions/find-account-entries";

/** A public entry (a published test entry or a baseline) of another account whose file is this one, byte for byte. */
export type IdenticalPublicEntry = { id: string; system: string; isBaseline: boolean };

/**
 * Protocol §12: a test file identical (same SHA-256) to another account's
 * public entry, on any version of the release name. The uploader is told
 * (their scores are that entry's scores, already public) and a maintainer
 * reviewing it reads it as a fact. Only public entries are looked at, and
 * only what their entry page shows (id and system name) is returned: whether
 * some other account privately uploaded the same file is never said. The
 * account's own identical test files are refused at upload instead
 * (assert-not-identical-upload.ts).
 */
export async function findIdenticalPublicEntry(
  file: { id: string; userId: string; releaseId: string; split: string; fileSha256: string },
  client: Prisma.TransactionClient = db,
): Promise<IdenticalPublicEntry | null> {
  if (file.split !== "test") return null;
  const family = await findReleaseFamily(file.releaseId, client);
  const entry = await client.submission.findFirst({
    where: {
      AND: [PUBLIC_ENTRY_WHERE, { id: { not: file.id }, split: "test", fileSha256: file.fileSha256, userId: { not: file.userId }, releaseId: { in: family.releaseIds } }],
    },
    orderBy: [{ isBaseline: "desc" }, { publishedAt: "asc" }, { createdAt: "asc" }],
    select: { id: true, isBaseline: true, baselineLabel: true, systemName: true, originalName: true },
  });
  if (entry === null) return null;
  return { id: entry.id, system: entry.baselineLabel ?? entry.systemName ?? entry.originalName, isBaseline: entry.isBaseline };
}
