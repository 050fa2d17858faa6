import "server-only";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import { formatCount } from "@/lib/core/format/numbers";
import type { Prisma, PublicationStatus, Track } from "@/lib/platform/generated/prisma";
import { countDifferences, publicationDistance, tooCloseOf, type TooClose } from "@/lib/core/integrity/answer-digests";
import { EVER_REQUESTED, findAccountEntries, findReleaseFamily, type AccountEntry, type ReleaseFamily } from "@/lib/domain/submissions/find-account-entries";
import { DIGEST_ROW_SELECT, loadAnswerDigests, testPositionMap, type DigestRow } from "@/lib/domain/scoring/load-answer-digests";
import { loadSplitGold } from "@/lib/domain/scoring/load-gold";
import { APPROVAL_TEST_SIZE } from "@/lib/domain/accounts/test-approval";

/** The test submission whose owner asks to publish it. */
type PublicationCandidate = DigestRow & { userId: string };

/** Why a publication request is refused: the message the owner reads, and what the audit log keeps for maintainers. */
type PublicationRefusal = {
  code: "conflict" | "validation";
  message: string;
  audit: Prisma.InputJsonObject;
};

/**
 * Protocol §12, the guard on publication, in two rules. (1) At most
 * `max_entries_per_account` published or pending entries per account, track
 * and release name (hidden ones count, withdrawn and rejected ones do not).
 * (2) The file must differ, on the samples of the ranking slice, in at least
 * max(25, 1% of the slice) samples overall (publicationDistance, the review's
 * near-copy finder's distance too), and in at least `min_group_n`
 * within any collection (of `min_group_n` slice samples or more: a smaller
 * one shows no numbers) or entity type where it differs at all, from every
 * baseline and every file of the account that ever had a publication request
 * (published, pending, hidden, rejected or withdrawn: EVER_REQUESTED) on any
 * track and version of the release name: answers compared in the unified
 * view (answer-digests.ts).
 * The group half applies to releases of 1,000 test samples or more: below
 * that §12 calls the gold illustrative, not protected, and with groups of a
 * few dozen samples no honest file could differ from a baseline in
 * `min_group_n` samples of every type it touches. Nothing here reads the test gold: the slice comes from sample ids, a
 * collection from test.jsonl, a type from the KB entities the answers name.
 * The refusal names the entry it is too close to and the rule, never a
 * sample, nor how many ranking-slice samples differ (a count of a subset the
 * owner chose would tell how many of it are in the slice). Null: publishable.
 */
export async function findPublicationRefusal(candidate: PublicationCandidate, client: Prisma.TransactionClient = db): Promise<PublicationRefusal | null> {
  const [release, family] = await Promise.all([
    client.datasetRelease.findUniqueOrThrow({ where: { id: candidate.releaseId }, select: { minGroupN: true, maxEntriesPerAccount: true } }),
    findReleaseFamily(candidate.releaseId, client),
  ]);
  const entries = await findAccountEntries({ userId: candidate.userId, family, track: candidate.track, exceptId: candidate.id }, client);
  if (entries.length >= release.maxEntriesPerAccount) return capRefusal(candidate.track, family, entries, release.maxEntriesPerAccount);

  const compared = await client.submission.findMany({
    where: {
      id: { not: candidate.id },
      split: "test",
      releaseId: { in: family.releaseIds },
      OR: [{ isBaseline: true }, { userId: candidate.userId, ...EVER_REQUESTED }],
    },
    // Baselines first, then the account's entries, oldest first.
    orderBy: [{ isBaseline: "desc" }, { createdAt: "asc" }],
    select: { ...DIGEST_ROW_SELECT, isBaseline: true, baselineLabel: true, systemName: true, originalName: true, publication: true },
  });
  if (compared.length === 0) return null;
  const digests = await loadAnswerDigests(candidate);
  if (digests === null) throw new AppError("conflict", "This file no longer passes the checks of its release; it cannot be published. Re-score it to see why.");
  const gold = await loadSplitGold(candidate.releaseId, "test");
  const { positions: ranking, required } = publicationDistance(gold);
  // Collections are public (test.jsonl names each sample's): the only field of the gold records read here.
  const collections = gold.gold.map((record) => record.collection);
  // §12: below 1,000 test samples the gold is illustrative, not protected, and its small groups would refuse every honest file.
  const groupRule =
    gold.sampleIds.length >= APPROVAL_TEST_SIZE ? { minGroupN: release.minGroupN, shownCollections: collectionsShown(ranking, collections, release.minGroupN) } : null;
  for (const other of compared) {
    const otherDigests = await loadAnswerDigests(other);
    if (otherDigests === null) continue;
    const differences = countDifferences({
      digests,
      other: otherDigests,
      otherPositionOf: await testPositionMap(candidate.releaseId, other.releaseId),
      positions: ranking,
      collections,
    });
    const tooClose = tooCloseOf(differences, required, groupRule);
    if (tooClose === null) continue;
    return {
      code: "validation",
      message: closenessMessage(describeTarget(other, family), tooClose, { required, minGroupN: groupRule?.minGroupN ?? null, releaseName: family.name }),
      audit: { refusal: "too-close", tooCloseTo: other.id, rule: tooClose.rule, group: "group" in tooClose ? tooClose.group : null, rankingSamplesDiffering: differences.differing },
    };
  }
  return null;
}

/** The collections with at least `minGroupN` samples in the slice: those whose numbers a public report shows (§12). */
function collectionsShown(positions: Uint32Array, collections: readonly string[], minGroupN: number): Set<string> {
  const sizes = new Map<string, number>();
  for (const position of positions) {
    const collection = collections[position] ?? "";
    sizes.set(collection, (sizes.get(collection) ?? 0) + 1);
  }
  return new Set([...sizes].filter(([, size]) => size >= minGroupN).map(([collection]) => collection));
}

function versionLabel(family: ReleaseFamily, releaseId: string): string {
  return `${family.name} ${family.versionOf.get(releaseId) ?? ""}`.trim();
}

/** A file compared is PRIVATE only when its request was withdrawn (EVER_REQUESTED). */
function publicationLabel(publication: PublicationStatus): string {
  return publication === "PRIVATE" ? "request withdrawn" : publication.toLowerCase();
}

function describeEntry(entry: Pick<AccountEntry, "id" | "systemName" | "originalName" | "publication" | "track" | "releaseId">, family: ReleaseFamily): string {
  return `"${entry.systemName ?? entry.originalName}" (${entry.id}, ${entry.track}-world, ${publicationLabel(entry.publication)}, ${versionLabel(family, entry.releaseId)})`;
}

type ComparedRow = DigestRow & { isBaseline: boolean; baselineLabel: string | null; systemName: string | null; originalName: string; publication: PublicationStatus };

function describeTarget(other: ComparedRow, family: ReleaseFamily): string {
  if (other.isBaseline) return `the baseline "${other.baselineLabel ?? other.systemName ?? other.originalName}" (${other.id}, ${other.track}-world, ${versionLabel(family, other.releaseId)})`;
  return `your entry ${describeEntry(other, family)}`;
}

function capRefusal(track: Track, family: ReleaseFamily, entries: readonly AccountEntry[], max: number): PublicationRefusal {
  return {
    code: "conflict",
    message:
      `You already have ${formatCount(entries.length)} published or pending entries on the ${track}-world track of ${family.name} (all versions together): ` +
      `${entries.map((entry) => describeEntry(entry, family)).join("; ")}. An account may have at most ${formatCount(max)} there (protocol §12). ` +
      "Withdrawing a pending request frees its place; hiding a published entry does not.",
    audit: { refusal: "entries-cap", entries: entries.map((entry) => entry.id), max },
  };
}

function closenessMessage(target: string, tooClose: TooClose, rule: { required: number; minGroupN: number | null; releaseName: string }): string {
  const minGroupN = formatCount(rule.minGroupN);
  const groups = rule.minGroupN === null ? "" : `, and in at least ${minGroupN} within any collection or entity type where it differs at all`;
  const broken =
    tooClose.rule === "overall"
      ? `against it, fewer than ${formatCount(rule.required)} of those samples differ`
      : tooClose.rule === "collection"
        ? `against it, the collection "${tooClose.group}" differs in some of those samples but fewer than ${minGroupN}`
        : `against it, the answers naming entities of type ${tooClose.group} differ in some of those samples but fewer than ${minGroupN}`;
  return (
    `This file is too close to ${target} to be published. On the test samples that decide the leaderboard (the ranking slice, whose samples are never named), ` +
    `a file must differ from every baseline and from each of your files ever up for publication on ${rule.releaseName} (published, pending, hidden, rejected or withdrawn) in at least ${formatCount(rule.required)} samples` +
    `${groups} (protocol §12), so that the difference of two public scores cannot read single answers; ${broken}. ` +
    "Answers are compared as the unified view reads them: an open answer and a closed top-1 that name the same entity are the same answer, answers that name nothing of the KB are all the same, " +
    "and an answer's type is the type of the KB entities it names. Change more answers and upload the file again."
  );
}
