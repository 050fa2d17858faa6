import "server-only";
import { findIdenticalPublicEntry, type IdenticalPublicEntry } from "@/lib/domain/publication/find-identical-public-entry";
import { publicDisclosureOf } from "@/lib/domain/scoring/public-disclosure";
import { missingFactSheetFields, type FactSheetField } from "@/lib/core/fact-sheet/completeness";
import { readStoredFactSheet, type FactSheet } from "@/lib/core/fact-sheet/schema";
import { scoredEntryTier, type ProvenanceTier } from "@/lib/core/fact-sheet/tiers";
import type { UserActor } from "@/lib/domain/accounts/actor";
import { isMaintainer, requireOwnerOrMaintainer } from "@/lib/domain/accounts/actor";
import { getSubmissionQuota, type SubmissionQuota } from "@/lib/domain/quotas/submission-quota";
import { db } from "@/lib/platform/db";
import {
  discloseComparison,
  disclosureLevelFor,
  discloseStoredScore,
  type DisclosedComparison,
  type DisclosedReport,
  type DisclosureLevel,
} from "@/lib/core/disclosure/disclose";
import { goldVersionId } from "@/lib/domain/scoring/gold-version";
import { AppError } from "@/lib/core/errors";
import { readProbeFlags, type ProbeFlags } from "@/lib/core/integrity/probe-flags-schema";
import { isPublicEntry } from "@/lib/domain/scoring/public-entry-rule";
import { describeVisibility, type SubmissionVisibility } from "@/lib/domain/publication/describe-visibility";
import { getQueuePosition, type QueuePosition } from "@/lib/domain/scoring/get-queue-position";
import { isScoreStale, releaseGoldOf } from "@/lib/core/scoring/score-staleness";
import type { Actor } from "@/lib/domain/accounts/actor";
import { parseRecordId } from "@/lib/core/text";

export type ComparisonView = DisclosedComparison;

export type SubmissionView = {
  id: string;
  ownerName: string;
  /** Whether the person asking owns it (maintainers see others' submissions too). */
  isViewerOwner: boolean;
  status: "QUEUED" | "SCORING" | "SCORED" | "FAILED";
  split: "train" | "dev" | "test";
  track: "open" | "closed";
  originalName: string;
  fileBytes: number;
  fileSha256: string;
  sampleCount: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  attempts: number;
  failureKind: "INVALID" | "INTERNAL" | null;
  failureReason: string | null;
  /** What it cost the owner's test quota, from the quota ledger (lib/domain/quotas/submission-quota.ts). */
  quota: SubmissionQuota;
  isBaseline: boolean;
  baselineLabel: string | null;
  publication: "PRIVATE" | "PENDING" | "PUBLISHED" | "REJECTED" | "HIDDEN";
  /** The owner's primary entry of its track (the leaderboard's default view shows only it). */
  isPrimary: boolean;
  /** Hidden by its owner, who may show it again (a maintainer's hide needs a maintainer). */
  hiddenByOwner: boolean;
  systemName: string | null;
  methodDescription: string | null;
  /** The fact sheet (lib/core/fact-sheet/schema.ts); null until publication is requested. */
  factSheet: FactSheet | null;
  /** The sheet's answers still "not stated" (empty when complete). */
  factSheetMissing: FactSheetField[];
  /** Whether this viewer may edit the sheet now: the owner until approval, a maintainer always (audited). */
  canEditFactSheet: boolean;
  /** The provenance tier (lib/core/fact-sheet/tiers.ts) and, when reproduced, who and when. */
  provenance: { tier: ProvenanceTier; reproducedAt: string | null; reproducedBy: string | null };
  reviewReason: string | null;
  /** Test files: another account's public entry with this very file (protocol §12), told to the owner and to maintainers. */
  identicalPublicEntry: IdenticalPublicEntry | null;
  releaseName: string;
  /** The release's feedback_fraction (protocol section 12): the share of its test split in the feedback slice. */
  feedbackFraction: number;
  /** What this viewer may learn of the scores (protocol section 12, lib/core/disclosure). */
  disclosureLevel: DisclosureLevel;
  /**
   * `report`: the owner's feedback slice before publication, the ranking slice
   * once public, the whole split for a maintainer, who also gets `slices`
   * (protocol section 12); null while not scored, or for a test score made
   * before the slices (stale until re-scored).
   */
  score: {
    report: DisclosedReport;
    slices: { feedback: DisclosedReport; ranking: DisclosedReport } | null;
    scorerVersion: string;
    goldVersion: string;
    computedAt: string;
    isStale: boolean;
  } | null;
  comparisons: ComparisonView[];
  /** Per-sample outcomes exist for dev submissions only; the test gold stays hidden. */
  hasSampleOutcomes: boolean;
  /** Who can see it right now (a baseline is public, a pending request is not yet). */
  visibility: SubmissionVisibility;
  /** While QUEUED: its place among the waiting jobs (1 is next); null otherwise or when the queue cannot be read. */
  queuePosition: QueuePosition | null;
  /** Maintainers only, test files only (docs/integrity.md); absent for everyone else. Key as in the JSON API. */
  probe_flags?: ProbeFlags | null;
};

function canEditFactSheet(submission: { split: string; isBaseline: boolean; status: string; publication: string }, viewer: UserActor): boolean {
  if (submission.split !== "test" || submission.isBaseline || submission.status !== "SCORED") return false;
  if (isMaintainer(viewer)) return true;
  return submission.publication !== "PUBLISHED" && submission.publication !== "HIDDEN";
}

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

/** What the owner (or a maintainer) may see of a submission: for the test split, aggregates only. */
// eslint-disable-next-line max-lines-per-function -- one view assembled from one row, each field's rule beside it
export async function getSubmissionView(actor: Actor, submissionId: string): Promise<SubmissionView> {
  const submission = await db.submission.findUnique({
    where: { id: parseRecordId(submissionId, "submission") },
    include: {
      user: { select: { displayName: true } },
      reproducedBy: { select: { displayName: true } },
      release: { select: { id: true, name: true, version: true, goldSha256: true, minGroupN: true, feedbackFraction: true } },
      score: { select: { report: true, feedbackReport: true, rankingReport: true, scorerVersion: true, goldSha256: true, computedAt: true, probeFlags: true } },
      comparisonsAsEntry: { include: { baseline: { select: { baselineLabel: true, systemName: true } } }, orderBy: [{ family: "asc" }, { baselineId: "asc" }] },
    },
  });
  if (!submission) throw new AppError("not_found", "Not found.");
  const viewer: UserActor = requireOwnerOrMaintainer(actor, submission.userId);
  const goldSha = releaseGoldOf(submission.release.goldSha256, submission.split);
  const level = disclosureLevelFor({ split: submission.split, isPublic: isPublicEntry(submission), isMaintainer: isMaintainer(viewer) });
  const labelOf = new Map(submission.comparisonsAsEntry.map((row) => [row.baselineId, row.baseline.baselineLabel ?? row.baseline.systemName ?? row.baselineId]));
  const factSheet = readStoredFactSheet(submission.factSheet);
  const score = submission.score;
  const options = level === "public" && score !== null ? publicDisclosureOf(submission.release, { id: submission.id, goldSha256: score.goldSha256 }) : { level, minGroupN: submission.release.minGroupN };
  const disclosed = score ? discloseStoredScore(score, options) : null;
  const report = disclosed?.report ?? null;
  return {
    id: submission.id,
    ownerName: submission.user.displayName,
    isViewerOwner: viewer.userId === submission.userId,
    status: submission.status,
    split: submission.split,
    track: submission.track,
    originalName: submission.originalName,
    fileBytes: submission.fileBytes,
    fileSha256: submission.fileSha256,
    sampleCount: submission.sampleCount,
    createdAt: submission.createdAt.toISOString(),
    startedAt: iso(submission.startedAt),
    finishedAt: iso(submission.finishedAt),
    attempts: submission.attempts,
    queuePosition: submission.status === "QUEUED" ? await getQueuePosition(submission.id) : null,
    failureKind: submission.failureKind,
    failureReason: submission.failureReason,
    quota: await getSubmissionQuota(submission.id, { withReason: viewer.userId === submission.userId || isMaintainer(viewer) }),
    isBaseline: submission.isBaseline,
    baselineLabel: submission.baselineLabel,
    publication: submission.publication,
    isPrimary: submission.isPrimary,
    hiddenByOwner: submission.hiddenByOwner,
    systemName: submission.systemName,
    methodDescription: submission.methodDescription,
    factSheet,
    factSheetMissing: factSheet === null ? [] : missingFactSheetFields(factSheet),
    canEditFactSheet: canEditFactSheet(submission, viewer),
    provenance: {
      tier: scoredEntryTier({ factSheet, isReproduced: submission.reproducedAt !== null }),
      reproducedAt: iso(submission.reproducedAt),
      reproducedBy: submission.reproducedBy?.displayName ?? null,
    },
    reviewReason: submission.reviewReason,
    identicalPublicEntry: submission.isBaseline ? null : await findIdenticalPublicEntry(submission),
    releaseName: `${submission.release.name} ${submission.release.version}`,
    feedbackFraction: submission.release.feedbackFraction,
    disclosureLevel: level,
    score:
      submission.score && report
      ? {
          report,
          slices: disclosed?.slices ?? null,
          scorerVersion: submission.score.scorerVersion,
          goldVersion: goldVersionId(submission.score.goldSha256),
          computedAt: submission.score.computedAt.toISOString(),
          isStale: isScoreStale(submission.score, goldSha),
        }
      : null,
    // The stored section 9 families are the owner's (feedback slice on test); a public entry's verdicts are its entry page's (section 13).
    comparisons: (level === "public" ? [] : submission.comparisonsAsEntry).map((row) =>
      discloseComparison(
        {
          baselineId: row.baselineId,
          baselineLabel: labelOf.get(row.baselineId) ?? row.baselineId,
          family: row.family === "unified" ? "unified" : "track",
          identicalTo: row.identicalTo === null ? null : (labelOf.get(row.identicalTo) ?? row.identicalTo),
          metric: row.metric,
          b: row.b,
          c: row.c,
          chi2: row.chi2,
          p: row.p,
          pExact: row.pExact,
          pHolm: row.pHolm,
        },
        level,
      ),
    ),
    hasSampleOutcomes: submission.split === "dev" && submission.status === "SCORED",
    visibility: describeVisibility(submission, viewer.userId === submission.userId ? "owner" : "maintainer"),
    ...(isMaintainer(viewer) ? { probe_flags: readProbeFlags(submission.score?.probeFlags) } : {}),
  };
}
