import "server-only";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import { formatCount } from "@/lib/core/format/numbers";
import type { Prisma, PublicationStatus, RefusalReason } from "@/lib/platform/generated/prisma";
import { countDifferences, publicationThresholds, tooCloseOf } from "@/lib/core/integrity/answer-digests";
import {
  EVER_REQUESTED,
  findAccountEntries,
  findBudgetAccounts,
  findReleaseFamily,
  type AccountEntry,
  type ReleaseFamily,
} from "@/lib/domain/submissions/find-account-entries";
import { DIGEST_ROW_SELECT, loadAnswerDigests, testPositionMap, type DigestRow } from "@/lib/domain/scoring/load-answer-digests";
import { loadTestLayout } from "@/lib/domain/publication/load-test-layout";
import { APPROVAL_TEST_SIZE } from "@/lib/domain/accounts/test-approval";

/** The test submission whose owner asks to publish it. */
type PublicationCandidate = DigestRow & { userId: string };

/** Why a publication request is refused: the message the owner reads, what the request history keeps, and what the audit log keeps for maintainers. */
type PublicationRefusal = {
  code: "conflict" | "validation";
  message: string;
  record: { reason: RefusalReason; tooCloseToId: string | null; rule: string | null };
  audit: Prisma.InputJsonObject;
};

/**
 * Protocol §12 (v1.3), the guard on publication, in two rules. (1) At most
 * `max_entries_per_account` published or pending entries per account (or
 * budget group of accounts a maintainer linked), track and release name
 * (hidden ones count, withdrawn, rejected and refused ones do not). (2) The
 * file must differ in at least ceil(max(25, 1% of the test split) / (1 - f))
 * samples of the whole test split, and in at least ceil(min_group_n / (1 - f))
 * within any collection where it differs at all (publicationThresholds), from
 * every baseline and every file of any account that ever had a publication
 * request on the release name (published, pending, hidden, rejected,
 * withdrawn or refused: EVER_REQUESTED), on any track and version: answers
 * compared by the unified answer key (answer-digests.ts), where every answer
 * that cannot be right on the test split is one answer.
 *
 * Nothing here reads the test gold: sample ids and collections come from
 * test.jsonl (loadTestLayout), the key from the KB and the train and dev
 * golds. So nothing the guard answers depends on which samples are in which
 * slice, or of which type. The refusal names the entry or request it is too
 * close to and nothing else: its text and status are the same whichever
 * rule, collection or sample made the file too close (the rule is kept for
 * maintainers in the audit log). Releases of fewer than 1,000 test samples,
 * whose gold §12 calls illustrative, not protected, get the overall rule
 * against the baselines and the account's (or budget group's) own history
 * only: their collections of a few samples would refuse every honest file,
 * and the bundled demo files are uploaded by many accounts. Null: publishable.
 */
export async function findPublicationRefusal(candidate: PublicationCandidate, client: Prisma.TransactionClient = db): Promise<PublicationRefusal | null> {
  const [release, family, budget] = await Promise.all([
    client.datasetRelease.findUniqueOrThrow({ where: { id: candidate.releaseId }, select: { minGroupN: true, maxEntriesPerAccount: true, feedbackFraction: true } }),
    findReleaseFamily(candidate.releaseId, client),
    findBudgetAccounts(candidate.userId, client),
  ]);
  const entries = await findAccountEntries({ userIds: budget, family, track: candidate.track, exceptId: candidate.id }, client);
  if (entries.length >= release.maxEntriesPerAccount) return capRefusal(candidate, family, entries, { max: release.maxEntriesPerAccount, isShared: budget.length > 1 });

  const { sampleIds, collections } = await loadTestLayout(candidate.releaseId);
  // §12: below 1,000 test samples the gold is illustrative, not protected: the account's own history and the baselines only, no collection rule.
  const isProtected = sampleIds.length >= APPROVAL_TEST_SIZE;
  const compared = await client.submission.findMany({
    where: {
      id: { not: candidate.id },
      split: "test",
      releaseId: { in: family.releaseIds },
      OR: [{ isBaseline: true }, isProtected ? EVER_REQUESTED : { userId: { in: budget }, ...EVER_REQUESTED }],
    },
    // Baselines first, then the oldest: the one named never depends on what the new file changed.
    orderBy: [{ isBaseline: "desc" }, { createdAt: "asc" }, { id: "asc" }],
    select: { ...DIGEST_ROW_SELECT, userId: true, isBaseline: true, baselineLabel: true, systemName: true, originalName: true, publication: true },
  });
  if (compared.length === 0) return null;
  const digests = await loadAnswerDigests(candidate);
  if (digests === null) throw new AppError("conflict", "This file no longer passes the checks of its release; it cannot be published. Re-score it to see why.");
  const thresholds = publicationThresholds({ testSamples: sampleIds.length, feedbackFraction: release.feedbackFraction, minGroupN: release.minGroupN });
  const applied = { overall: thresholds.overall, perCollection: isProtected ? thresholds.perCollection : null };
  for (const other of compared) {
    const otherDigests = await loadAnswerDigests(other);
    if (otherDigests === null) continue;
    const differences = countDifferences({ digests, other: otherDigests, otherPositionOf: await testPositionMap(candidate.releaseId, other.releaseId), collections });
    const tooClose = tooCloseOf(differences, applied);
    if (tooClose === null) continue;
    return {
      code: "validation",
      message: closenessMessage(describeTarget(other, candidate.userId, budget, family), { ...applied, releaseName: family.name }),
      record: { reason: "TOO_CLOSE", tooCloseToId: other.id, rule: tooClose.rule },
      audit: {
        refusal: "too-close",
        tooCloseTo: other.id,
        rule: tooClose.rule,
        collection: tooClose.rule === "collection" ? tooClose.collection : null,
        samplesDiffering: differences.differing,
      },
    };
  }
  return null;
}

function versionLabel(family: ReleaseFamily, releaseId: string): string {
  return `${family.name} ${family.versionOf.get(releaseId) ?? ""}`.trim();
}

/** A file compared is PRIVATE only when its request was withdrawn or refused (EVER_REQUESTED). */
function publicationLabel(publication: PublicationStatus): string {
  return publication === "PRIVATE" ? "request withdrawn or refused" : publication.toLowerCase();
}

function describeEntry(entry: Pick<AccountEntry, "id" | "systemName" | "originalName" | "publication" | "track" | "releaseId">, family: ReleaseFamily): string {
  return `"${entry.systemName ?? entry.originalName}" (${entry.id}, ${entry.track}-world, ${publicationLabel(entry.publication)}, ${versionLabel(family, entry.releaseId)})`;
}

type ComparedRow = DigestRow & { userId: string; isBaseline: boolean; baselineLabel: string | null; systemName: string | null; originalName: string; publication: PublicationStatus };

/**
 * The entry or request named: a baseline or a published entry by its public
 * name; the account's own files (and its budget group's) in full; another
 * account's file that is not public by its id, track and version only.
 */
function describeTarget(other: ComparedRow, userId: string, budget: readonly string[], family: ReleaseFamily): string {
  if (other.isBaseline) return `the baseline "${other.baselineLabel ?? other.systemName ?? other.originalName}" (${other.id}, ${other.track}-world, ${versionLabel(family, other.releaseId)})`;
  if (other.userId === userId) return `your entry ${describeEntry(other, family)}`;
  if (budget.includes(other.userId)) return `the entry ${describeEntry(other, family)} of an account that shares your entries budget`;
  if (other.publication === "PUBLISHED") return `the published entry "${other.systemName ?? other.originalName}" (${other.id}, ${other.track}-world, ${versionLabel(family, other.releaseId)}) of another account`;
  return `a publication request of another account (${other.id}, ${other.track}-world, ${versionLabel(family, other.releaseId)}, not public)`;
}

function capRefusal(candidate: PublicationCandidate, family: ReleaseFamily, entries: readonly AccountEntry[], cap: { max: number; isShared: boolean }): PublicationRefusal {
  const whose = cap.isShared ? "The accounts that share your entries budget already have" : "You already have";
  const who = cap.isShared ? "One person's or lab's accounts together may have" : "An account may have";
  return {
    code: "conflict",
    message:
      `${whose} ${formatCount(entries.length)} published or pending entries on the ${candidate.track}-world track of ${family.name} (all versions together): ` +
      `${entries.map((entry) => describeEntry(entry, family)).join("; ")}. ${who} at most ${formatCount(cap.max)} there (protocol §12). ` +
      "Withdrawing a pending request frees its place; hiding a published entry does not.",
    record: { reason: "ENTRIES_CAP", tooCloseToId: null, rule: null },
    audit: { refusal: "entries-cap", entries: entries.map((entry) => entry.id), max: cap.max, shared: cap.isShared },
  };
}

/** The one text of a too-close refusal: it depends on the entry named and the release, never on the rule, collection or samples. */
function closenessMessage(target: string, rule: { overall: number; perCollection: number | null; releaseName: string }): string {
  const collections = rule.perCollection === null ? "" : `, and in at least ${formatCount(rule.perCollection)} samples of any collection where it differs at all`;
  return (
    `This file is too close to ${target} to be published. A file must differ from every baseline and from every entry and publication request on ${rule.releaseName} ` +
    `(of any account, on either track; published, pending, hidden, rejected, withdrawn or refused) in at least ${formatCount(rule.overall)} samples of the test split${collections} ` +
    "(protocol §12), so that the difference of two public scores cannot read single answers. " +
    "Answers are compared as the unified view reads them: an open answer and a closed top-1 that name the same entity are the same answer, " +
    "and every answer that cannot be right on the test split (one naming only train or dev entities, or nothing of the KB) is the same answer. " +
    "This request stays in your request history and later requests are compared with this file too. Change more answers and upload the file again."
  );
}
